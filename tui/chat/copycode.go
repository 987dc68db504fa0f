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

// Copying code as Claude Code's /copy does: "/copy" lists the last
// reply's code blocks and the whole reply to pick one (the root shows the
// list, LastReplyCode), "/copy N" copies its Nth code block at once; Y in
// the transcript copies the code block under the cursor (copycursor.go).
// Tabs are copied as they are (the screen shows them as spaces).

// CodeBlock is one fenced code block of a reply: its info string's first
// word (the language, "" when none) and its code.
type CodeBlock struct {
	Lang, Code string
}

// fences returns the fenced code blocks of markdown s (``` or ~~~,
// closed by a fence of the same character at least as long; an unclosed
// one runs to the end).
func fences(s string) []CodeBlock {
	var out []CodeBlock
	lines := strings.Split(s, "\n")
	start, fc, fn, lang := -1, byte(0), 0, ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		c, n := fenceRun(t)
		switch {
		case start < 0 && n >= 3:
			start, fc, fn = i, c, n
			lang = ""
			if f := strings.Fields(t[n:]); len(f) > 0 {
				lang = f[0]
			}
		case start >= 0 && c == fc && n >= fn && strings.TrimSpace(t[n:]) == "":
			out = append(out, CodeBlock{Lang: lang, Code: strings.Join(lines[start+1:i], "\n")})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, CodeBlock{Lang: lang, Code: strings.Join(lines[start+1:], "\n")})
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
func replyCode(msg *reducer.Message) []CodeBlock {
	var out []CodeBlock
	for _, b := range msg.Blocks.All() {
		if b.Kind == reducer.KindText {
			out = append(out, fences(b.Text())...)
		}
	}
	return out
}

// LastReplyCode returns the last reply's code blocks (their code made safe
// to paste, tabs kept) and the whole reply as markdown; ok is false when
// there is no reply yet.
func (m *Model) LastReplyCode() (code []CodeBlock, whole string, ok bool) {
	msg := m.lastReply()
	if msg == nil {
		return nil, "", false
	}
	code = replyCode(msg)
	for i := range code {
		code[i].Code = copySanitize(code[i].Code)
	}
	return code, messageMarkdown(msg), true
}

// CopyReply copies the last reply (arg "") or its code block arg (1-based).
func (m *Model) CopyReply(arg string) tea.Cmd {
	msg := m.lastReply()
	if msg == nil {
		return uikit.Notice("no reply to copy yet", false)
	}
	code := replyCode(msg)
	if arg == "" {
		return app.CopyCmd(messageMarkdown(msg), "the last reply as markdown", "/export")
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(code) {
		if len(code) == 0 {
			return uikit.Notice("the last reply has no code block (/copy copies all of it)", false)
		}
		return uikit.Notice(fmt.Sprintf("/copy N: N is 1%s (the last reply's code blocks)", rangeEnd(len(code))), false)
	}
	return app.CopyCmd(copySanitize(code[n-1].Code), fmt.Sprintf("code block %d of %d", n, len(code)), "/export")
}

func rangeEnd(n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf("…%d", n)
}
