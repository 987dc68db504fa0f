package reducer

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// refParts cuts text into markdown contentRef parts of the given sizes.
func refParts(sizes ...int) []ahpwire.ResponsePart {
	var out []ahpwire.ResponsePart
	for i, n := range sizes {
		out = append(out, ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ahpwire.ContentRef{
			URI: "ref:/" + string(rune('a'+i)), SizeHint: ahpwire.Ptr(int64(n)), ContentType: "text/markdown"}})
	}
	return out
}

func refChat(text string) ahpwire.ChatState {
	tool := ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{ToolCallID: "tc", ToolName: "x", Status: ahpwire.ToolCompleted}}
	return ahpwire.ChatState{Resource: "ahp-chat:/c", Turns: []ahpwire.Turn{
		{ID: "t0", Message: ahpwire.ChatMessage{Text: "hi"}, ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p", "small")}, State: ahpwire.TurnComplete},
		{ID: "t1", Message: ahpwire.ChatMessage{Text: "big"}, ResponseParts: []ahpwire.ResponsePart{tool, ahpwire.MarkdownPart("p", text)}, State: ahpwire.TurnComplete},
	}}
}

// AdoptRefTurn takes the host's referenced form of a finished turn only
// when its pages add up to the text on rune boundaries and every other
// part is unchanged; it then replaces that turn and its assistant message
// (other messages are shared) and returns the pages' texts.
func TestAdoptRefTurn(t *testing.T) {
	text := strings.Repeat("ab", 5) + "é" + strings.Repeat("c", 9) // 21 bytes, é at 10–11
	cs := refChat(text)
	s := Project(cs)
	host := cs.Turns[1]
	host.ResponseParts = append([]ahpwire.ResponsePart{host.ResponseParts[0]}, refParts(10, 11)...)

	ncs, ns, pages, ok := AdoptRefTurn(cs, s, host)
	if !ok || len(pages) != 2 || pages[0].Text+pages[1].Text != text || pages[1].URI != "ref:/b" {
		t.Fatalf("ok %v pages %+v", ok, pages)
	}
	if len(cs.Turns[1].ResponseParts) != 2 || cs.Turns[1].ResponseParts[1].Content != text {
		t.Fatal("the old AHP state was modified")
	}
	got := ncs.Turns[1].ResponseParts
	if len(got) != 3 || got[0].ToolCall != cs.Turns[1].ResponseParts[0].ToolCall || got[2].Kind != ahpwire.PartContentRef {
		t.Fatalf("adopted parts %+v", got)
	}
	last := ns.Messages[len(ns.Messages)-1]
	if last.ID != "t1" || last.Blocks.Len() != 3 || last.Blocks.At(1).Kind != KindContentRef || last.Status != StatusComplete {
		t.Fatalf("adopted message %+v", last)
	}
	if ns.Messages[1] != s.Messages[1] || s.Messages[3].Blocks.At(1).Text() != text {
		t.Fatal("other messages not shared, or the old state changed")
	}

	bad := map[string][]ahpwire.ResponsePart{
		"sizes short":       append([]ahpwire.ResponsePart{host.ResponseParts[0]}, refParts(10, 10)...),
		"sizes long":        append([]ahpwire.ResponsePart{host.ResponseParts[0]}, refParts(10, 12)...),
		"mid-rune cut":      append([]ahpwire.ResponsePart{host.ResponseParts[0]}, refParts(11, 10)...),
		"tool call changed": append([]ahpwire.ResponsePart{ahpwire.MarkdownPart("q", "x")}, refParts(10, 11)...),
		"extra part":        append(append([]ahpwire.ResponsePart{host.ResponseParts[0]}, refParts(10, 11)...), ahpwire.MarkdownPart("z", "z")),
		"inline again":      cs.Turns[1].ResponseParts,
	}
	for name, parts := range bad {
		h := host
		h.ResponseParts = parts
		if _, ns2, _, ok := AdoptRefTurn(cs, s, h); ok || ns2.Seq != s.Seq {
			t.Errorf("%s: adopted", name)
		}
	}
	if _, _, _, ok := AdoptRefTurn(cs, s, ahpwire.Turn{ID: "nope", ResponseParts: host.ResponseParts}); ok {
		t.Error("an unknown turn was adopted")
	}
	if x := Reduce(s, MessageReplaced{Message: &Message{ID: "t1", Role: RoleAssistant, Status: StatusStreaming}}); x.Stats.IgnoredActions != 1 {
		t.Error("a streaming message replaced a finished one")
	}
}
