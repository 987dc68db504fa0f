package ahphost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// agentActs applies actions as the chat's running agent would, through
// the host's own path for agent chat actions (agentChatAction).
func agentActs(h *Host, chat string, acts ...ahpwire.Action) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ce := h.st.chats[chat]
	for _, a := range acts {
		h.st.agentChatAction(ce, a)
	}
}

// textOf reassembles a turn's markdown and markdown pages, and a tool
// call's output blocks, through resourceRead.
func textOf(t *testing.T, w *wsClient, tr ahpwire.Turn) (md, tool string) {
	t.Helper()
	read := func(uri string) string {
		var r ahpwire.ResourceReadResult
		must(t, json.Unmarshal(w.call("resourceRead", map[string]any{"channel": ahpwire.RootURI, "uri": uri}), &r))
		return r.Data
	}
	var b, o strings.Builder
	for _, p := range tr.ResponseParts {
		switch p.Kind {
		case ahpwire.PartMarkdown:
			b.WriteString(p.Content)
		case ahpwire.PartContentRef:
			b.WriteString(read(p.Ref.URI))
		case ahpwire.PartToolCall:
			for _, c := range p.ToolCall.Content {
				if c.Type == ahpwire.ContentResource {
					o.WriteString(read(c.URI))
				} else {
					o.WriteString(c.Text)
				}
			}
		}
	}
	return b.String(), o.String()
}

// TestPagedStreamMixedTurn: a reply streamed in small deltas past
// LargePartBytes, a tool call whose output is over it, then more text in
// a new part: the live subscriber and a client paging the turn in later
// hold equal chats; the inline head ends after a blank line; the pages
// give the text and the output back.
func TestPagedStreamMixedTurn(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, LargePartBytes: 4000, ResourcePageBytes: 1500})
	live := dial(t, u, nil)
	live.initialize("live", nil, nil)
	chat := live.createSession("ahp-session:/mixed")
	mirror, from := mirrorChat(t, live, chat)

	var para strings.Builder
	for i := 0; para.Len() < 12000; i++ {
		para.WriteString("A paragraph of the reply, number " + itoa(i) + ", long enough to wrap.\n\n")
	}
	reply := para.String()
	output := strings.Repeat("tool output line\n", 600) // ~10 KB
	agentActs(h, chat, &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: "2026-11-22T00:00:00.000Z", Message: ahpwire.UserMessage("go")},
		&ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m1", "")})
	for i := 0; i < len(reply); i += 700 {
		agentActs(h, chat, &ahpwire.ChatDelta{TurnID: "t1", PartID: "m1", Content: reply[i:min(len(reply), i+700)]})
	}
	agentActs(h, chat,
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "run", DisplayName: "Run"},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: ahpwire.Plain("run"), Confirmed: "not-needed"},
		&ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ran"),
			Content: []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: output}}}},
		&ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m2", "done.")},
		&ahpwire.ChatTurnComplete{TurnID: "t1", Duration: ahpwire.Ptr(int64(5))})
	for done := false; !done; {
		e := live.action("turn t1", func(e envelope) bool { return e.Channel == chat })
		done = e.typ() == ahpwire.ActionChatTurnComplete
	}
	mirror = reduceSeen(t, live, chat, mirror, from)

	late := dial(t, u, nil)
	late.initialize("late", nil, nil)
	paged, _ := mirrorChat(t, late, chat)
	paged = pageIn(t, late, chat, paged)
	if g, w := mustJSONBytes(t, paged), mustJSONBytes(t, mirror); string(g) != string(w) {
		t.Fatalf("live and paged clients disagree\nlive  %.600s\npaged %.600s", w, g)
	}
	tr := mirror.Turns[0]
	if head := tr.ResponseParts[0]; head.Kind != ahpwire.PartMarkdown || len(head.Content) > 4000 || !strings.HasSuffix(head.Content, "\n\n") {
		t.Fatalf("inline head: %s of %d bytes ending %q", head.Kind, len(head.Content), head.Content[max(0, len(head.Content)-10):])
	}
	md, out := textOf(t, late, tr)
	if md != reply+"done." {
		t.Fatalf("the parts give %d bytes of markdown, want %d", len(md), len(reply)+5)
	}
	if out != output {
		t.Fatalf("the tool output comes back as %d bytes, want %d", len(out), len(output))
	}
}

// TestPagedStreamCancelKeepsTheReplySoFar: a client cancelling a paged
// reply mid-stream gets the text held back for the next page as a last
// page before the turn ends (nothing the agent sent is lost).
func TestPagedStreamCancelKeepsTheReplySoFar(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, LargePartBytes: 1000, ResourcePageBytes: 1000})
	w := dial(t, u, nil)
	w.initialize("c", nil, nil)
	chat := w.createSession("ahp-session:/cancel")
	w.call("subscribe", map[string]any{"channel": chat})
	text := strings.Repeat("word ", 500) // 2500 bytes, no newline
	agentActs(h, chat, &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: "2026-11-22T00:00:00.000Z", Message: ahpwire.UserMessage("go")},
		&ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m1", "")},
		&ahpwire.ChatDelta{TurnID: "t1", PartID: "m1", Content: text})
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 1,
		"action": map[string]any{"type": "chat/turnCancelled", "turnId": "t1", "duration": 3}})
	w.actionOfType(chat, ahpwire.ActionChatTurnCancelled)
	st := chatWire(t, w, chat)
	st = pageIn(t, w, chat, st)
	if len(st.Turns) != 1 {
		t.Fatalf("%d turns", len(st.Turns))
	}
	if md, _ := textOf(t, w, st.Turns[0]); md != text {
		t.Fatalf("after the cancel the turn holds %d of %d bytes", len(md), len(text))
	}
}

// TestHeadCut: the inline head stays within the limit, ends after a blank
// line (else a newline) in the last quarter, else on a rune boundary.
func TestHeadCut(t *testing.T) {
	cases := []struct {
		cur, more string
		limit     int64
		want      string
	}{
		{"", "short", 100, "short"},
		{"", strings.Repeat("a", 80) + "\n\n" + strings.Repeat("b", 50), 100, strings.Repeat("a", 80) + "\n\n"},
		{"", strings.Repeat("a", 70) + "\n\n" + strings.Repeat("b", 50), 100, strings.Repeat("a", 70) + "\n\n" + strings.Repeat("b", 28)},
		{"", strings.Repeat("a", 80) + "\n" + strings.Repeat("b", 50), 100, strings.Repeat("a", 80) + "\n"},
		{"", strings.Repeat("é", 60), 101, strings.Repeat("é", 50)},
		{strings.Repeat("x", 100), "more", 100, ""},
		{strings.Repeat("x", 90), "\n\nabcdefghijklmn", 100, "\n\n"},
	}
	for i, c := range cases {
		if got := headCut(c.cur, c.more, c.limit); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}
