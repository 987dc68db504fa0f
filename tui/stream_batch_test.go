package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// streamEvents are a streamed answer's envelopes: small deltas, a tool
// call needing approval, more deltas and the turn's end.
func streamEvents() []connEventMsg {
	var evs []connEventMsg
	seq := uint64(2)
	add := func(a ahpwire.Action) {
		evs = append(evs, envelope(seq, a))
		seq++
	}
	text := "## Heading\n\nA paragraph streamed in small deltas, with `code` and a list:\n\n- one\n- two\n\n```go\nfunc f() {}\n```\n\nThe end.\n"
	for i := 0; i < len(text); i += 7 {
		add(&ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: text[i:min(i+7, len(text))]})
	}
	add(&ahpwire.ChatResponsePart{TurnID: "t2", Part: pendingTool()})
	add(&ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: "after the tool"})
	add(&ahpwire.ChatTurnComplete{TurnID: "t2"})
	return evs
}

// A batch of events applies exactly as the same events one by one: the
// same screen, the same prompt opened for the tool call.
func TestBatchAppliesLikeSingleEvents(t *testing.T) {
	single, _ := newTestModel(t, 100, 30)
	single = openChat(t, single, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""))))
	batched, _ := newTestModel(t, 100, 30)
	batched = openChat(t, batched, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""))))
	evs := streamEvents()
	for _, e := range evs {
		single = send(t, single, e)
	}
	batched = send(t, batched, connBatchMsg{evs: evs})
	single, batched = send(t, single, app.FrameMsg{}), send(t, batched, app.FrameMsg{})
	if got, want := viewText(batched), viewText(single); got != want {
		t.Fatalf("batched screen differs:\n%s\n--- one by one:\n%s", got, want)
	}
	if !strings.Contains(viewText(batched), "after the tool") || len(batched.overlays) != len(single.overlays) {
		t.Fatalf("batch not applied (overlays %d vs %d):\n%s", len(batched.overlays), len(single.overlays), viewText(batched))
	}
}

// A batch of streamed text skips the post-Update walk (syncExt) until the
// frame lays the transcript out; any other event keeps it.
func TestOnlyStreamedText(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""))))
	evs := streamEvents()
	deltas := connBatchMsg{evs: evs[:3]}
	for _, c := range []struct {
		msg  tea.Msg
		want bool
	}{
		{deltas, true},
		{evs[0], true},
		{connBatchMsg{evs: evs}, false},
		{envelope(99, &ahpwire.ChatTurnComplete{TurnID: "t2"}), false},
		{app.FrameMsg{}, false},
	} {
		if got := m.onlyStreamedText(c.msg); got != c.want {
			t.Errorf("%T: onlyStreamedText %v, want %v", c.msg, got, c.want)
		}
	}
}

// A streamed delta changes nothing on screen until the frame lays it out:
// View hands back the last frame (which a fresh render equals), and the
// frame after it draws the new text.
func TestStreamedTextReusesFrame(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "first words"))))
	before := viewText(m)
	nm, _ := m.Update(envelope(5, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: " and a streamed tail"}))
	m = nm.(Model)
	if !m.drawn.view.reuse {
		t.Fatal("a streamed delta did not mark the frame reusable")
	}
	if got := viewText(m); got != before || m.render() != m.drawn.view.content {
		t.Fatalf("the reused frame differs from a fresh render:\n%s\n--- fresh:\n%s", got, m.render())
	}
	m = send(t, m, app.FrameMsg{})
	if m.drawn.view.reuse || !strings.Contains(viewText(m), "streamed tail") {
		t.Fatalf("the frame did not draw the new text:\n%s", viewText(m))
	}
}

// Consecutive deltas of one part in a batch are reduced as one (textRun):
// the chat's state, its screen and what is acknowledged are those of the
// deltas one by one, with runs broken by another part, by a delta with
// _meta and by any other action.
func TestBatchMergesDeltasLosslessly(t *testing.T) {
	open := func() Model {
		m, _ := newTestModel(t, 100, 30)
		return openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""), ahpwire.MarkdownPart("t2.m2", ""))))
	}
	var evs []connEventMsg
	seq := uint64(2)
	delta := func(part, text string, meta bool) {
		d := &ahpwire.ChatDelta{TurnID: "t2", PartID: part, Content: text}
		if meta {
			d.Meta = ahpwire.Meta{"x": []byte(`1`)}
		}
		evs = append(evs, envelope(seq, d))
		seq++
	}
	for i, w := range strings.Fields("one two three four five six seven eight nine ten eleven twelve") {
		part := "t2.m1"
		if i/3%2 == 1 {
			part = "t2.m2"
		}
		delta(part, w+" ", i == 7)
	}
	single, batched := open(), open()
	for _, e := range evs {
		single = send(t, single, e)
	}
	batched = send(t, batched, connBatchMsg{evs: evs})
	parts := func(m Model) []string {
		var out []string
		for _, p := range m.chat.AHP().ActiveTurn.ResponseParts.All() {
			out = append(out, p.Content)
		}
		return out
	}
	if got, want := strings.Join(parts(batched), "|"), strings.Join(parts(single), "|"); got != want ||
		want != "one two three seven eight nine |four five six ten eleven twelve " {
		t.Fatalf("batched parts %q, one by one %q", got, want)
	}
	single, batched = send(t, single, app.FrameMsg{}), send(t, batched, app.FrameMsg{})
	if got, want := viewText(batched), viewText(single); got != want {
		t.Fatalf("batched screen differs:\n%s\n--- one by one:\n%s", got, want)
	}
}

// A session snapshot of a host of the VS Code dialect (<provider>:/<id>,
// which the pump also decodes as a chat's in case it is one) opens the
// session when it comes in a batch, as it does alone.
func TestBatchOpensDialectSession(t *testing.T) {
	const session, chat = "vsc:/s1", "vsc:/s1/chat"
	ss := ahpwire.SessionState{Provider: "demo", Title: "dialect", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: chat, Chats: []ahpwire.ChatSummary{{Resource: chat, Title: "main"}}}
	for _, batched := range []bool{false, true} {
		m, _ := newTestModel(t, 100, 30)
		m = send(t, m, picker.OpenSessionMsg{Session: session})
		snap := snapshotEvent(t, session, ss).ev
		ev := eventMsg(snap, nil)
		if ev.decoded == nil || ev.decoded.kind != ahpstate.ScopeChat {
			t.Fatal("the pump did not decode the dialect snapshot as a possible chat's: the test no longer covers the batch's chat path")
		}
		if batched {
			m = send(t, m, connBatchMsg{evs: []connEventMsg{ev, eventMsg(snap, nil)}})
		} else {
			m = send(t, m, ev)
		}
		if m.screen != screenChat || m.chat == nil || m.chat.Session != session {
			t.Fatalf("batched=%v: session not opened (screen %v)", batched, m.screen)
		}
	}
}
