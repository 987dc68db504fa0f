package tui

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// The TUI's half of the client's send order (ahpclient's sendorder_test.go
// proves the client's): App.Dispatch takes an action's place in the order
// when Update calls it, so the commands Bubble Tea runs on goroutines of
// their own, in any order, deliver a title typed key by key to the real
// host as it was typed.
func TestDispatchKeepsUpdateOrder(t *testing.T) {
	r := newLiveRig(t, 0)
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	session := r.m.chat.Session

	const want = "ls -la && echo typed-in-order"
	var cmds []tea.Cmd
	for i := range want {
		cmds = append(cmds, r.m.c.Dispatch(session, &ahpwire.SessionTitleChanged{Title: want[:i+1]}, "rename the session"))
	}
	rand.Shuffle(len(cmds), func(i, j int) { cmds[i], cmds[j] = cmds[j], cmds[i] })
	msgs := make([]tea.Msg, len(cmds))
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() { defer wg.Done(); msgs[i] = c() }()
	}
	wg.Wait()
	typed := make([]uint64, len(want)) // clientSeqs in the order Update dispatched
	for _, msg := range msgs {
		d, ok := msg.(app.DispatchedMsg)
		if !ok || d.Err != nil {
			t.Fatalf("dispatch reported %#v", msg)
		}
		typed[len(d.Action.(*ahpwire.SessionTitleChanged).Title)-1] = d.ClientSeq
		r.m = send(t, r.m, msg)
	}

	// The host's echoes, in the order it applied them, through the model.
	var echoed []uint64
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for len(echoed) < len(want) {
		ev, err := r.client.Next(ctx)
		if err != nil {
			t.Fatalf("echoes %v of %v: %v", echoed, typed, err)
		}
		switch ev := ev.(type) {
		case ahpclient.EnvelopeEvent:
			if o := ev.Envelope.Origin; ev.Own && ev.Envelope.Channel == session && o != nil {
				echoed = append(echoed, o.ClientSeq)
			}
		case ahpclient.OutboxEvent:
			if ev.Entry.Status == ahpclient.OutboxRejected {
				t.Fatalf("the host rejected %d: %v", ev.Entry.ClientSeq, ev.Entry.Err)
			}
		}
		r.m = send(t, r.m, connEventMsg{ev: ev})
	}
	if !slices.Equal(echoed, typed) {
		t.Fatalf("the host applied clientSeqs %v, Update dispatched %v", echoed, typed)
	}
	if got := r.m.sessionState().Title; got != want {
		t.Fatalf("the session's title is %q, typed %q", got, want)
	}
}
