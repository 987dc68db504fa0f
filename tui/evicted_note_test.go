package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestHostNoteTurnHasNoEmptyYou: a turn the host made itself, with no
// user text (the note that replaces a chat the state budget dropped),
// shows its note without a "› You" header over nothing.
func TestHostNoteTurnHasNoEmptyYou(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	note := ahpwire.Turn{ID: "evicted", StartedAt: fixedNow.Format("2006-01-02T15:04:05.000Z"), Message: ahpwire.UserMessage(""),
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("evicted-1", "_This chat's history was removed to keep the host's saved state within its size budget._")},
		State:         ahpwire.TurnComplete}
	m = openChat(t, m, chatState([]ahpwire.Turn{note}, nil))
	v := viewText(m)
	if !strings.Contains(v, "size budget") || strings.Contains(v, "› You") {
		t.Fatalf("the host's note turn:\n%s", v)
	}
	// A user message with text keeps its header.
	m = openChat(t, m, chatState([]ahpwire.Turn{note, finishedTurn("t2", "a question after it", "an answer")}, nil))
	if v := viewText(m); !strings.Contains(v, "› You") || !strings.Contains(v, "a question after it") || strings.Count(v, "› You") != 1 {
		t.Fatalf("a real turn after the note:\n%s", v)
	}
}
