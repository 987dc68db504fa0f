package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// emptyChatView puts what to do into the top lines of an empty chat's
// transcript: how to send, the demo's own help (/demo help), and the keys
// to the picker and the new-session form.
func (m *Model) emptyChatView(tv string) string {
	km := &m.c.KM
	lines := []string{"  No messages yet — type below and press enter."}
	if m.c.DemoAgent {
		lines = append(lines, "  /demo help lists what the demo can show.")
	}
	lines = append(lines, "  "+km.Chat.Sessions.Help().Key+" sessions · "+km.Chat.NewSession.Help().Key+
		" new session with options · / commands · "+km.Global.Help.Help().Key+" help")
	rows := strings.Split(tv, "\n")
	for i, l := range lines {
		if i >= len(rows) || i >= m.Transcript.Height {
			break
		}
		rows[i] = ansi.Truncate(m.c.Styles.Chat.Notice.Render(l), max(1, m.width), "…")
	}
	return strings.Join(rows, "\n")
}
