package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
)

func TestResultReviewHintsAcceptReject(t *testing.T) {
	tool := resultReviewTool()
	m, fb := runningChat(t, tool)
	v := viewText(m)
	for _, want := range []string{"a/y accept", "d/n reject", "ok  ./... 0.1s"} {
		if !strings.Contains(v, want) {
			t.Errorf("result review lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "deny with reason") {
		t.Errorf("a result review cannot carry a reason:\n%s", v)
	}
	m = send(t, m, keyPress("r"))
	if len(fb.dispatched) != 0 || m.overlays[0].(*dialog.Approval).Asking() {
		t.Fatal("r must do nothing in a result review")
	}
}

func TestApprovalPromptShowsEditDiffAndKeepsKeysVisible(t *testing.T) {
	tool := pendingTool()
	tool.ToolCall.Options = nil
	var edits []ahpwire.FileEdit
	var b strings.Builder
	for i := range 60 {
		b.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	before := b.String()
	edits = append(edits, ahpwire.FileEdit{
		Before: &ahpwire.FileEditSide{URI: "file:///p/main.go", Content: ahpwire.ContentRef{URI: "data:text/plain," + strings.ReplaceAll(before, "\n", "%0A")}},
		After:  &ahpwire.FileEditSide{URI: "file:///p/main.go", Content: ahpwire.ContentRef{URI: "data:text/plain," + strings.ReplaceAll("NEW\n"+before, "\n", "%0A")}},
	})
	tool.ToolCall.Edits = &ahpwire.FileEditCollection{Items: edits}
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, activeTurn(tool)))
	v := viewText(m)
	if !strings.Contains(v, "+NEW") && !strings.Contains(v, "Edits") {
		// The diff may be below the fold; scroll to it.
		for range 40 {
			m = send(t, m, keyPress("down"))
		}
		v = viewText(m)
	}
	if !strings.Contains(v, "+NEW") {
		t.Errorf("the prompt does not show the edit's diff:\n%s", v)
	}
	// However far it scrolled, approve and deny stay on screen.
	if !strings.Contains(v, "a/y approve") || !strings.Contains(v, "d/n deny") {
		t.Errorf("approve/deny keys scrolled out of sight:\n%s", v)
	}
}

// promptWhileTyping opens a running chat whose clock reads *now, types
// "an" in the composer, lets after pass and has an approval for `ls`
// arrive.
func promptWhileTyping(t *testing.T, now *time.Time, after time.Duration) (Model, *fakeBackend) {
	t.Helper()
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, Host: "h", Dark: true, Now: func() time.Time { return *now },
		NewID: func() string { return "id" }, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	m = send(t, m, teaSize(100, 30))
	m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working"))))
	m = typeText(t, m, "an")
	*now = now.Add(after)
	m = send(t, m, envelope(4, &ahpwire.ChatToolCallStart{TurnID: "t2", ToolCallID: "tc1", ToolName: "run_command", DisplayName: "Run command"}))
	m = send(t, m, envelope(5, &ahpwire.ChatToolCallReady{TurnID: "t2", ToolCallID: "tc1",
		InvocationMessage: ahpwire.Plain("Run `ls`"), ToolInput: ahpwire.InlineInput(`{"command":"ls"}`)}))
	return m, fb
}

func TestPromptOpeningWhileTypingIgnoresKeysBriefly(t *testing.T) {
	now := fixedNow
	// The user types "an" in the composer; the approval arrives right then.
	m, fb := promptWhileTyping(t, &now, 200*time.Millisecond)
	if len(m.overlays) != 1 {
		t.Fatalf("no prompt (%d overlays)", len(m.overlays))
	}
	if !strings.Contains(viewText(m), "you were typing") {
		t.Fatalf("the guard is not shown:\n%s", viewText(m))
	}
	m = typeText(t, m, "d a")
	if len(fb.dispatched) != 0 || len(m.overlays) != 1 {
		t.Fatalf("keys typed as the prompt opened were taken as a decision: %v", fb.dispatched)
	}
	now = now.Add(promptGuard)
	m = send(t, m, promptGuardEndedMsg{})
	if strings.Contains(viewText(m), "you were typing") {
		t.Fatal("guard notice stays after the guard ended")
	}
	send(t, m, keyPress("a"))
	if a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !ok || !a.Approved {
		t.Fatalf("a after the guard must approve, got %#v", fb.lastDispatch(t).action)
	}
}

func TestPromptNotGuardedWhenIdle(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	send(t, m, keyPress("a"))
	if _, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !ok {
		t.Fatal("a prompt opened while idle must take keys at once")
	}
}

func TestFormMarksTheFreeformRow(t *testing.T) {
	m, _ := runningChat(t, inputPart())
	m = send(t, m, keyPress("tab")) // -> language (single-select with free-form)
	m = send(t, m, keyPress("up"))  // wraps to the "other" row
	if !strings.Contains(viewText(m), "› other: ") {
		t.Fatalf("the free-form row does not show the cursor:\n%s", viewText(m))
	}
}

func TestEscThatClosedAPromptDoesNotAlsoCancelTheTurn(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	m = send(t, m, keyPress("esc")) // closes the approval prompt ("later")
	m = send(t, m, keyPress("esc")) // the same esc, pressed twice
	if len(fb.dispatched) != 0 {
		t.Fatalf("a double esc on a prompt cancelled the turn: %#v", fb.lastDispatch(t).action)
	}
	_ = send(t, m, keyPress("esc")) // a deliberate third esc cancels
	if _, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnCancelled); !ok {
		t.Fatal("esc after the debounce must cancel the turn")
	}
}

// TestGuardedPromptShowsItsKeysDisabled: while the typing guard holds, the
// prompt says its keys are paused and draws its key hints dimmed; when the
// guard ends they are drawn as live keys again.
func TestGuardedPromptShowsItsKeysDisabled(t *testing.T) {
	now := fixedNow
	m, _ := promptWhileTyping(t, &now, 0)
	hintLine := func(m Model) string {
		for _, l := range strings.Split(m.View().Content, "\n") {
			if s := ansi.Strip(l); strings.Contains(s, "approve") && strings.Contains(s, "deny") {
				return l
			}
		}
		t.Fatalf("no key hints on screen:\n%s", viewText(m))
		return ""
	}
	guarded := hintLine(m)
	if v := viewText(m); !strings.Contains(v, "keys paused") || !strings.Contains(v, "decision keys are off for 0.8s") {
		t.Fatalf("the guard's state is not shown:\n%s", v)
	}
	now = now.Add(promptGuard)
	m = send(t, m, promptGuardEndedMsg{})
	live := hintLine(m)
	if ansi.Strip(guarded) != ansi.Strip(live) || guarded == live {
		t.Fatalf("the hints are drawn the same way with and without the guard:\n%q\n%q", guarded, live)
	}
	if strings.Contains(viewText(m), "keys paused") {
		t.Fatal("the pause stays after the guard ended")
	}
}

// refBackend is a fakeBackend that serves content references by URI,
// once gate is closed.
type refBackend struct {
	*fakeBackend
	texts map[string]string
	gate  chan struct{}
}

func (b *refBackend) ResourceRead(_ context.Context, uri, _ string) (ahpclient.Resource, error) {
	<-b.gate
	if s, ok := b.texts[uri]; ok {
		return ahpclient.Resource{Data: []byte(s), ContentType: "text/plain"}, nil
	}
	return ahpclient.Resource{}, fmt.Errorf("%s: not found", uri)
}

// The edit's diff lines in the prompt (the tab drawn as spaces).
var (
	addedLine   = regexp.MustCompile(`\+\s+println\("hello, ahptui"\)`)
	removedLine = regexp.MustCompile(`-\s+println\("hello world"\)`)
)

// An ACP agent's proposed edit reaches the prompt as content references
// (ahp-content: URIs the host serves, not data: URIs): the prompt fetches
// them and shows the diff, as the transcript does, once they arrive (the
// prompt was drawn before).
func TestApprovalPromptLoadsEditDiffByReference(t *testing.T) {
	tool := pendingTool()
	before, after := "package main\n\nfunc main() {\n\tprintln(\"hello world\")\n}\n", "package main\n\nfunc main() {\n\tprintln(\"hello, ahptui\")\n}\n"
	side := func(which string, n int) *ahpwire.FileEditSide {
		return &ahpwire.FileEditSide{URI: "file:///p/app.go", Content: ahpwire.ContentRef{
			URI: "ahp-content:/acp/c1/t1/tc1-1/" + which, ContentType: "text/plain", SizeHint: ahpwire.Ptr(int64(n))}}
	}
	tool.ToolCall.Edits = &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{{Before: side("before", len(before)), After: side("after", len(after))}}}
	rb := &refBackend{fakeBackend: &fakeBackend{}, gate: make(chan struct{}), texts: map[string]string{
		"ahp-content:/acp/c1/t1/tc1-1/before": before, "ahp-content:/acp/c1/t1/tc1-1/after": after}}
	m := newModel(Options{Backend: rb, Host: "127.0.0.1:4321", Dark: true, Editor: "true", Now: func() time.Time { return fixedNow },
		FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = openChat(t, m, chatState(nil, activeTurn(tool)))
	if _, ok := m.overlays[len(m.overlays)-1].(*dialog.Approval); !ok {
		t.Fatalf("no approval prompt:\n%s", viewText(m))
	}
	if v := viewText(m); !strings.Contains(v, "Approval needed") || strings.Contains(v, `println("hello, ahptui")`) {
		t.Fatalf("before the contents arrive:\n%s", v)
	}
	close(rb.gate)
	var v string
	for range 50 { // the fetches finish on their own goroutines
		m = send(t, m, app.NoticeExpiredMsg{})
		if v = viewText(m); addedLine.MatchString(v) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !addedLine.MatchString(v) || !removedLine.MatchString(v) || strings.Contains(v, "not loaded") {
		t.Fatalf("the prompt does not show the edit's diff:\n%s", v)
	}
}
