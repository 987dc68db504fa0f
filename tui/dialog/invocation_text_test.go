package dialog

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Dialogs show a markdown invocation message as plain text (render's
// RichPlain): no backticks, emphasis markers or link syntax; a plain-text
// message keeps its backticks.
func TestDialogsShowInvocationMessageAsPlainText(t *testing.T) {
	sty := uikit.NewStyles(render.DarkStyles())
	st := &sty
	md := &ahpwire.StringOrMarkdown{Text: "Run `go test ./...` in **[the repo](https://example.com)** _now_", Markdown: true}
	const want = "Run go test ./... in the repo now"
	tc := &ahpwire.ToolCallState{ToolName: "shell", InvocationMessage: md, Status: ahpwire.ToolPendingConfirmation}

	a := NewAuthNotice(keymap.Default().Auth, "t1", tc)
	if v := ansi.Strip(a.View(st, 120, 40)); !strings.Contains(v, want) {
		t.Errorf("auth notice lacks %q:\n%s", want, v)
	}
	p := NewApproval(keymap.Default().Approval, "t1", tc, st)
	if v := ansi.Strip(strings.Join(p.plainBody(st, 100), "\n")); !strings.Contains(v, want) {
		t.Errorf("approval body lacks %q:\n%s", want, v)
	}

	tc.InvocationMessage = &ahpwire.StringOrMarkdown{Text: "Run `ls`"}
	a = NewAuthNotice(keymap.Default().Auth, "t1", tc)
	if v := ansi.Strip(a.View(st, 120, 40)); !strings.Contains(v, "Run `ls`") {
		t.Errorf("plain message lost its backticks:\n%s", v)
	}
}
