package chat

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Copying code as Claude Code's /copy does: "/copy" copies the last reply
// (and says how many code blocks it has), "/copy N" its Nth code block;
// Y copies the focused block's code, the next code block on each press.
// Tabs are copied as they are (the screen shows them as spaces).

// fences returns the bodies of the fenced code blocks of markdown s (```
// or ~~~, closed by a fence of the same character at least as long; an
// unclosed one runs to the end).
func fences(s string) []string {
	var out []string
	lines := strings.Split(s, "\n")
	start, fc, fn := -1, byte(0), 0
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		c, n := fenceRun(t)
		switch {
		case start < 0 && n >= 3:
			start, fc, fn = i, c, n
		case start >= 0 && c == fc && n >= fn && strings.TrimSpace(t[n:]) == "":
			out = append(out, strings.Join(lines[start+1:i], "\n"))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.Join(lines[start+1:], "\n"))
	}
	return out
}

// fenceRun is the fence character and run length that starts t (0 when
// none: fewer than three backticks or tildes).
func fenceRun(t string) (byte, int) {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	return t[0], n
}

// copySanitize is render.Sanitize keeping tabs as they are.
func copySanitize(s string) string {
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = render.Sanitize(p)
	}
	return strings.Join(parts, "\t")
}

// lastReply is the newest agent message (nil when none).
func (m *Model) lastReply() *reducer.Message {
	msgs := m.AllMessages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i] != nil && msgs[i].Role != reducer.RoleUser {
			return msgs[i]
		}
	}
	return nil
}

// replyCode is the code blocks of a reply's text, in order.
func replyCode(msg *reducer.Message) []string {
	var out []string
	for _, b := range msg.Blocks {
		if b.Kind == reducer.KindText {
			out = append(out, fences(b.Text())...)
		}
	}
	return out
}

// CopyReply copies the last reply (arg "") or its code block arg (1-based).
func (m *Model) CopyReply(arg string) tea.Cmd {
	msg := m.lastReply()
	if msg == nil {
		return uikit.Notice("no reply to copy yet", false)
	}
	code := replyCode(msg)
	if arg == "" {
		what := "the last reply as markdown"
		if n := len(code); n > 0 {
			what = fmt.Sprintf("the last reply as markdown; it has %d code block%s: /copy 1%s copies one", n, plural(n), rangeEnd(n))
		}
		return app.CopyCmd(messageMarkdown(msg), what, "/export")
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(code) {
		if len(code) == 0 {
			return uikit.Notice("the last reply has no code block (/copy copies all of it)", false)
		}
		return uikit.Notice(fmt.Sprintf("/copy N: N is 1%s (the last reply's code blocks)", rangeEnd(len(code))), false)
	}
	return app.CopyCmd(copySanitize(code[n-1]), fmt.Sprintf("code block %d of %d", n, len(code)), "/export")
}

// copyFocusedCode copies the focused block's code: its next code block on
// each press (the first when the focus moved).
func (m *Model) copyFocusedCode() tea.Cmd {
	b := m.focusedBlock()
	if b == nil {
		return uikit.Notice("the focused block has no code fence", false)
	}
	code := fences(rawCopyText(b))
	if len(code) == 0 {
		return uikit.Notice("the focused block has no code fence", false)
	}
	id := ""
	if sp := m.Transcript.FocusedSpan(); sp != nil {
		id = sp.ID
	}
	if id != m.codeFor {
		m.codeFor, m.codeNext = id, 0
	}
	i := m.codeNext % len(code)
	m.codeNext = i + 1
	what := "code"
	if len(code) > 1 {
		what = fmt.Sprintf("code block %d of %d (Y again: the next)", i+1, len(code))
	}
	return app.CopyCmd(copySanitize(code[i]), what, m.c.KM.Transcript.Export.Help().Key)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func rangeEnd(n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf("…%d", n)
}
