package demo

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxHistory is the most past turns "/demo history N" asks for.
const MaxHistory = 5000

// DefaultHistory is the turn count of "/demo history" without N.
const DefaultHistory = 300

// HistoryTurns reports whether text is "/demo history [N]" and the turn
// count it asks for (DefaultHistory without N); ok is false for any other
// text and for a count outside 1..MaxHistory. The host, which alone can
// create sessions, seeds the chat; the agent only explains.
func HistoryTurns(text string) (n int, ok bool) {
	f := strings.Fields(text)
	if len(f) < 2 || !strings.EqualFold(f[0], Prefix) || !strings.EqualFold(f[1], "history") {
		return 0, false
	}
	if len(f) == 2 {
		return DefaultHistory, true
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 1 || n > MaxHistory {
		return 0, false
	}
	return n, true
}

// HistorySession is the session "/demo history N" creates.
func HistorySession(n int) string { return fmt.Sprintf("ahp-session:/history-%d", n) }

// historyText is the answer to "/demo history N".
func historyText(n int) string {
	return fmt.Sprintf("Created the session `%s`: a chat of %d finished turns. Open it from the session list "+
		"(Ctrl+S): it opens on its newest turns, shows \"earlier turns…\" at the top and loads older ones "+
		"(fetchTurns) as you scroll up. Replies over 1 MiB (`/demo big 2m`) are kept as content references "+
		"once finished and read back with resourceRead when reopened.", HistorySession(n), n)
}

// HistoryTurns reports the N of a "/demo history N" message (the host seeds
// that session before the turn runs; see HistoryTurns).
func (a *Agent) HistoryTurns(text string) (int, bool) { return HistoryTurns(text) }

// HistorySession returns the session URI "/demo history N" opens.
func (a *Agent) HistorySession(n int) string { return HistorySession(n) }
