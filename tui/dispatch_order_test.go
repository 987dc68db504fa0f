package tui

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// Keys typed into a terminal reach the host in the order they were typed,
// whichever order Bubble Tea's goroutines run their commands in (a quick
// "ls" used to arrive as "sl").
func TestTerminalInputKeepsTypingOrder(t *testing.T) {
	f := &fakeBackend{}
	o := app.NewOutbox(context.Background(), f)
	const uri = "ahp-terminal:/t1"
	want := "ls -la && echo typed-in-order\r"
	var cmds []tea.Cmd
	cmds = append(cmds, o.Send(uri, &ahpwire.TerminalClaimed{}, "claim the terminal"))
	for _, r := range want {
		cmds = append(cmds, o.Send(uri, &ahpwire.TerminalInput{Data: string(r)}, "type into the terminal"))
	}
	// Run the commands concurrently, started in a shuffled order.
	rand.Shuffle(len(cmds), func(i, j int) { cmds[i], cmds[j] = cmds[j], cmds[i] })
	var wg sync.WaitGroup
	for _, c := range cmds {
		wg.Add(1)
		go func() { defer wg.Done(); c() }()
	}
	wg.Wait()

	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.dispatched) != len(want)+1 {
		t.Fatalf("dispatched %d actions, want %d", len(f.dispatched), len(want)+1)
	}
	if _, ok := f.dispatched[0].action.(*ahpwire.TerminalClaimed); !ok {
		t.Fatalf("first action %T, want the claim", f.dispatched[0].action)
	}
	var got strings.Builder
	for _, d := range f.dispatched[1:] {
		in, ok := d.action.(*ahpwire.TerminalInput)
		if !ok || d.channel != uri {
			t.Fatalf("unexpected action %T on %q", d.action, d.channel)
		}
		got.WriteString(in.Data)
	}
	if got.String() != want {
		t.Fatalf("host got %q, want %q", got.String(), want)
	}
}

// One outbox per backend: a later viewer on the same host shares it, so
// its claim cannot overtake the release of the viewer before it.
func TestOutboxIsPerBackend(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	a, b := m.c.Sender(), m.c.Sender()
	if a == nil || b == nil || m.c.Out == nil {
		t.Fatal("no sender with a backend")
	}
	first := m.c.Out
	m.c.Dispatch("ahp-session:/s", &ahpwire.SessionIsReadChanged{IsRead: true}, "mark read")
	if m.c.Out != first {
		t.Fatal("a second dispatch on the same backend got a new outbox")
	}
	m.c.Backend = &fakeBackend{}
	m.c.Sender()
	if m.c.Out == first {
		t.Fatal("another backend kept the old outbox")
	}
	m.c.Backend = nil
	if m.c.Sender() != nil {
		t.Fatal("a sender without a backend")
	}
}

// A message and the cancel pressed right after it reach the host in that
// order: the cancel cannot overtake the turn it cancels.
func TestSendThenCancelKeepOrder(t *testing.T) {
	for range 20 {
		m, f := newTestModel(t, 80, 24)
		const chat = "ahp-chat:/c"
		send := m.c.Dispatch(chat, &ahpwire.ChatTurnStarted{TurnID: "t1"}, "send message")
		cancel := m.c.Dispatch(chat, &ahpwire.ChatTurnCancelled{TurnID: "t1"}, "cancel turn")
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); cancel() }()
		go func() { defer wg.Done(); send() }()
		wg.Wait()
		f.mu.Lock()
		if len(f.dispatched) != 2 {
			t.Fatalf("dispatched %d", len(f.dispatched))
		}
		if _, ok := f.dispatched[0].action.(*ahpwire.ChatTurnStarted); !ok {
			t.Fatalf("first dispatched %T, want the message", f.dispatched[0].action)
		}
		f.mu.Unlock()
	}
}
