package acp

import (
	"regexp"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// An agent whose model API fails retries on its own, often for minutes,
// and says so only on stderr (Gemini CLI: "Attempt 2 failed with status
// 429. Retrying with backoff…"); the chat would show "working" all along.
// The bridge shows such a line as the activity of the running turns (the
// status line under the chat), until the agent's next output or the turn's
// end; when the agent gives up, its error ends the turn as usual.

// retryLine matches stderr lines that report a model API failure or retry.
var retryLine = regexp.MustCompile(`(?i)\b(retry|retrying|retries|rate.?limit|overloaded|too many requests|quota|backoff|attempt \d+|status(?: code)?:? (?:429|5\d\d))\b`)

// maxActivity bounds the activity line.
const maxActivity = 160

// stderrLine shows a retry report on the agent's stderr as the activity of
// every running turn of the agent.
func (b *Bridge) stderrLine(line string) {
	if !retryLine.MatchString(line) {
		return
	}
	for _, tm := range b.runningTurns() {
		tm.showActivity(line)
	}
}

// runningTurns lists the running turns of the bridge's sessions.
func (b *Bridge) runningTurns() []*turnMap {
	b.mu.Lock()
	sessions := make([]*session, 0, len(b.sessions))
	for _, s := range b.sessions {
		sessions = append(sessions, s)
	}
	b.mu.Unlock()
	var out []*turnMap
	for _, s := range sessions {
		if tm := s.activeTurn(); tm != nil {
			out = append(out, tm)
		}
	}
	return out
}

// showActivity shows what the agent reported (trimmed, bounded) as the
// turn's activity line, until its next output or the turn's end.
func (tm *turnMap) showActivity(line string) {
	line = strings.TrimSpace(line)
	if len(line) > maxActivity {
		line = line[:maxActivity] + "…"
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.activity = true
	tm.emitLocked(&ahpwire.ChatActivityChanged{Activity: "agent: " + line})
}

// clearActivityLocked clears an activity line the bridge set. tm.mu is held.
func (tm *turnMap) clearActivityLocked() {
	if !tm.activity {
		return
	}
	tm.activity = false
	tm.emitLocked(&ahpwire.ChatActivityChanged{})
}
