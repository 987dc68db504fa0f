package acp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// historyReader is a ChannelReader holding a chat's turns and pages.
type historyReader struct {
	agent.Channels
	turns []ahpwire.Turn
	pages map[string]string
}

func (r historyReader) ChangesetState(string) (ahpwire.ChangesetState, bool) {
	return ahpwire.ChangesetState{}, false
}

func (r historyReader) ReadResource(uri string) ([]byte, bool) {
	p, ok := r.pages[uri]
	return []byte(p), ok
}

func (r historyReader) ChatTurns(string) []ahpwire.Turn { return r.turns }

// TestHistoryBlockKeepsTheLatestWithinItsBound: a long chat's transcript
// keeps its latest turns, oldest first, within historyBytes (the oldest
// one kept cut at its start); a long reply's pages are read back into it;
// a chat with no turns gives none.
func TestHistoryBlockKeepsTheLatestWithinItsBound(t *testing.T) {
	var turns []ahpwire.Turn
	for i := range 40 {
		turns = append(turns, ahpwire.Turn{ID: fmt.Sprint(i), Message: ahpwire.UserMessage(fmt.Sprintf("question %d", i)), State: ahpwire.TurnComplete,
			ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p", strings.Repeat(fmt.Sprintf("answer %d. ", i), 300))}})
	}
	ref := ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ahpwire.ContentRef{URI: "page:/1"}}
	turns[39].ResponseParts = append(turns[39].ResponseParts, ref)
	r := historyReader{turns: turns, pages: map[string]string{"page:/1": "THE PAGE"}}
	got := historyBlock(agent.Turn{Chat: "ahp-chat:/c", Channels: r})
	if body := len(got) - len(historyIntro) - len(historyOutro); body > historyBytes || body < historyBytes-100 {
		t.Fatalf("transcript of %d bytes, bound %d", body, historyBytes)
	}
	if strings.Contains(got, "question 20\n") || !strings.Contains(got, "User: question 38") || !strings.Contains(got, "THE PAGE") ||
		strings.Index(got, "question 38") > strings.Index(got, "question 39") {
		t.Fatalf("not the latest turns, oldest first, with the page:\n%.300s … %.300s", got, got[len(got)-300:])
	}
	if got := historyBlock(agent.Turn{Chat: "ahp-chat:/c", Channels: historyReader{}}); got != "" {
		t.Fatalf("a chat with no turns: %q", got)
	}
}
