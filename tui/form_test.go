package tui

// Tests of the input-request form.

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

func TestInputFormSubmitDeclineCancel(t *testing.T) {
	m, fb := runningChat(t, inputPart())
	// Required field empty: submit refuses.
	for range 3 {
		m = send(t, m, keyPress("tab"))
	}
	m = send(t, m, keyPress("enter"))
	if len(fb.dispatched) != 0 || !strings.Contains(viewText(m), "is required") {
		t.Fatalf("submitted without the required answer:\n%s", viewText(m))
	}
	if f := m.overlays[0].(*dialog.InputForm); f.Current() != 0 {
		t.Fatalf("focus stayed on field %d; it must jump to the missing answer (0)", f.Current())
	}
	m = typeText(t, m, "myproj")
	m = send(t, m, keyPress("enter")) // -> language
	m = send(t, m, keyPress("down"))  // Rust
	m = send(t, m, keyPress("enter")) // picks Rust -> tests
	m = send(t, m, keyPress("y"))
	m = send(t, m, keyPress("enter")) // -> workers
	m = typeText(t, m, "4")
	send(t, m, keyPress("enter"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	if !ok || a.RequestID != "q1" || a.Response != "accept" {
		t.Fatalf("want inputCompleted accept, got %#v", fb.lastDispatch(t).action)
	}
	want := map[string]string{"name": "myproj", "lang": "rust", "tests": "true", "n": "4"}
	for id, v := range want {
		ans, ok := a.Answers[id]
		if !ok || ans.State != "submitted" || ans.Value == nil || ans.Value.String() != v {
			t.Errorf("answer %s = %+v, want submitted %q", id, ans, v)
		}
	}
	// Decline and cancel need a second press; any other key disarms them.
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("ctrl+d"))
	if len(fb.dispatched) != 0 || !strings.Contains(viewText(m), "again to decline") {
		t.Fatalf("one ctrl+d must only ask for confirmation:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("ctrl+d"))
	if len(fb.dispatched) != 0 {
		t.Fatal("ctrl+d after another key must ask again")
	}
	send(t, m, keyPress("ctrl+d"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted); a.Response != "decline" {
		t.Fatalf("ctrl+d ctrl+d: %s", a.Response)
	}
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("ctrl+x"))
	send(t, m, keyPress("ctrl+x"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted); a.Response != "cancel" {
		t.Fatalf("ctrl+x ctrl+x: %s", a.Response)
	}
	// esc only closes the form; the question stays pending and ctrl+p reopens it.
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("esc"))
	if len(fb.dispatched) != 0 || len(m.overlays) != 0 || !strings.Contains(viewText(m), "1 waiting for you") {
		t.Fatal("esc must close the form without answering")
	}
	m = send(t, m, keyPress("ctrl+p"))
	if _, ok := m.overlays[0].(*dialog.InputForm); !ok {
		t.Fatal("ctrl+p did not reopen the form")
	}
}

func TestMultiSelectWithFreeform(t *testing.T) {
	yes := true
	part := ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &ahpwire.ChatInputRequest{ID: "q2",
		Questions: []ahpwire.ChatInputQuestion{{Kind: ahpwire.QuestionMultiSelect, ID: "tags", Message: "Tags?", AllowFreeformInput: &yes,
			Options: []ahpwire.ChatInputOption{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}, {ID: "c", Label: "C"}}}}}}
	m, fb := runningChat(t, part)
	m = send(t, m, keyPress("space")) // A
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("space")) // C
	m = send(t, m, keyPress("down"))  // free-form row
	m = typeText(t, m, "zed")
	send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	v := a.Answers["tags"].Value
	if v == nil || v.Kind != "selected-many" || v.String() != "a, c" || !slices.Equal(v.FreeformValues, []string{"zed"}) {
		t.Fatalf("multi-select answer: %+v", v)
	}
}

// defaultsPart asks for a text and a number, both with defaults.
func defaultsPart() ahpwire.ResponsePart {
	return ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &ahpwire.ChatInputRequest{ID: "q3",
		Questions: []ahpwire.ChatInputQuestion{
			{Kind: ahpwire.QuestionText, ID: "name", Title: "Project name", DefaultValue: []byte(`"my-project"`)},
			{Kind: ahpwire.QuestionNumber, ID: "n", Title: "Workers", DefaultValue: []byte(`8`)},
		}}}
}

func TestFormDefaultIsReplacedByTyping(t *testing.T) {
	m, fb := runningChat(t, defaultsPart())
	if v := viewText(m); !strings.Contains(v, "my-project") || !strings.Contains(v, "8") {
		t.Fatalf("defaults not shown:\n%s", v)
	}
	m = typeText(t, m, "ahp-tool")
	m = send(t, m, keyPress("enter"))
	m = typeText(t, m, "12")
	send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	for id, want := range map[string]string{"name": "ahp-tool", "n": "12"} {
		if v := a.Answers[id].Value; v == nil || v.String() != want {
			t.Errorf("answer %s = %+v, want exactly %q (typing must replace the default)", id, v, want)
		}
	}
}

func TestFormEmptyDefaultedFieldSubmitsDefault(t *testing.T) {
	m, fb := runningChat(t, defaultsPart())
	m = send(t, m, keyPress("enter"))
	// Typing and erasing leaves the field empty again: the default stands.
	m = typeText(t, m, "3")
	m = send(t, m, keyPress("backspace"))
	send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	if a.Response != "accept" {
		t.Fatalf("response %q", a.Response)
	}
	for id, want := range map[string]string{"name": "my-project", "n": "8"} {
		if ans := a.Answers[id]; ans.State != "submitted" || ans.Value == nil || ans.Value.String() != want {
			t.Errorf("answer %s = %+v, want the default %q submitted", id, ans, want)
		}
	}
}

func TestFormDefaultPlaceholderIsSanitized(t *testing.T) {
	part := defaultsPart()
	part.Request.Questions[0].DefaultValue = []byte(`"evil\u001b]52;c;QUFB\u0007name\nsecond line"`)
	m, fb := runningChat(t, part)
	v := m.View().Content // raw: ansi.Strip would hide a leaked sequence
	if strings.Contains(v, "]52;") || strings.Contains(v, "\x07") || strings.Contains(v, "second line") || !strings.Contains(viewText(m), "evilname …") {
		t.Fatalf("default placeholder not sanitized to one line:\n%q", v)
	}
	m = send(t, m, keyPress("enter"))
	send(t, m, keyPress("enter"))
	// The submitted default is the host's value, unchanged.
	a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	if got := a.Answers["name"].Value.String(); got != "evil\x1b]52;c;QUFB\x07name\nsecond line" {
		t.Fatalf("submitted default %q", got)
	}
}

// TestTallFormSaysWhatIsHidden: a form taller than the screen says how
// many questions are below (and, scrolled, above) instead of cutting a
// question off silently.
func TestTallFormSaysWhatIsHidden(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, activeTurn(inputPart())))
	v := viewText(m)
	if !strings.Contains(v, "↓ 1 more question below") || strings.Contains(v, "above") {
		t.Fatalf("first field focused:\n%s", v)
	}
	for range 3 {
		m = send(t, m, keyPress("tab"))
	}
	v = viewText(m)
	if !strings.Contains(v, "↑ 1 more question above") || strings.Contains(v, "below") {
		t.Fatalf("last field focused:\n%s", v)
	}
	if !strings.Contains(v, "How many workers?") {
		t.Fatalf("the focused question is not shown:\n%s", v)
	}
	// A screen tall enough for everything shows no markers.
	m = send(t, m, teaSize(120, 40))
	if v := viewText(m); strings.Contains(v, "above") || strings.Contains(v, "below") {
		t.Fatalf("markers on a form that fits:\n%s", v)
	}
}
