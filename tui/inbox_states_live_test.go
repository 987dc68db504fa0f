package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// waitingTools lists the tool calls of session's chat that wait for a
// decision, read over c (another client of the host).
func waitingTools(t *testing.T, c *ahpclient.Client, session string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := c.Subscribe(ctx, session, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Unsubscribe(ctx, session)
	ss, err := ahpwire.DecodeSessionState(snap.State)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, q := range ss.InputNeeded {
		if q.Kind == ahpwire.InputNeededToolConfirmation && q.ToolCall != nil {
			out = append(out, q.ToolCall.ToolCallID)
		}
	}
	return out
}

// TestInboxStatesOnTheAttachedHost: hosts a (attached) and b; on a, while
// the user has a chat open, one session starts waiting for an approval
// and another for an answer. The inbox names each precisely ("needs
// approval", "needs input", not "needs you": each session's state is read
// over a's connection, which the open chat shares), the open chat keeps
// getting its own updates meanwhile, and the approval is given from the
// inbox: it reaches host a.
func TestInboxStatesOnTheAttachedHost(t *testing.T) {
	ua, _ := startEmbedded(t)
	ub, _ := startEmbedded(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ca, err := dialLive(t, ctx, ua)
	if err != nil {
		t.Fatal(err)
	}
	other, err := dialLive(t, ctx, ua) // another client of a
	if err != nil {
		t.Fatal(err)
	}
	startTurn(t, other, "open", "hello")
	waitIdle(t, other, "ahp-session:/open")
	m := newModel(Options{
		Backend: ca, HostName: "a", Host: "a", Dark: true, Context: ctx,
		FrameInterval: time.Millisecond, NoticeTTL: time.Hour,
		Hosts: []HostOption{
			{Name: "a", Label: "a"},
			{Name: "b", Label: "b", Connect: func(ctx context.Context) (app.Backend, error) {
				c, err := dialLive(t, ctx, ub)
				if c == nil {
					return nil, err
				}
				return c, err
			}},
		},
	})
	r := newAsyncRig(t, m)
	r.until("a's session listed", 20*time.Second, func(m Model) bool {
		_, ok := m.picker.HostSession("a", "ahp-session:/open")
		return ok
	})
	r.send(picker.OpenSessionMsg{Session: "ahp-session:/open"})
	r.until("the chat open", 20*time.Second, func(m Model) bool {
		return m.screen == screenChat && m.chat != nil && m.chat.Ready && strings.Contains(viewText(m), "hello")
	})

	startTurn(t, other, "appr", "/demo tools")
	startTurn(t, other, "ask", "/demo input")
	r.until("both kinds read while the chat is open", 30*time.Second, func(m Model) bool {
		return m.picker.Waiting("a", "ahp-session:/appr") == picker.WaitApproval &&
			m.picker.Waiting("a", "ahp-session:/ask") == picker.WaitQuestion
	})
	// The open chat still follows its channels: a turn another client
	// starts in it shows.
	waitIdle(t, other, "ahp-session:/open")
	sendTurn(t, other, "ahp-session:/open", "open-t2", "still here?")
	r.until("the open chat's new turn", 20*time.Second, func(m Model) bool {
		for _, msg := range m.chat.AllMessages() {
			if msg.TurnID == "open-t2" && msg.Role != reducer.RoleUser && m.chat.State.Current == nil {
				return true // its reply, to the end
			}
		}
		return false
	})

	r.key("ctrl+s") // the inbox
	r.until("the inbox's states", 20*time.Second, func(m Model) bool {
		v := viewText(m)
		return m.screen == screenPicker && strings.Contains(v, "/demo tools  demo · needs approval") &&
			strings.Contains(v, "/demo input  demo · needs input")
	})
	if v := viewText(r.m); strings.Contains(v, "needs you") {
		t.Fatalf("a row still says only \"needs you\":\n%s", v)
	}

	before := waitingTools(t, other, "ahp-session:/appr")
	if len(before) != 1 {
		t.Fatalf("want one tool call waiting, got %v", before)
	}
	p := &r.m.picker
	for i, mt := range p.Shown {
		if e := p.Entries[mt.Index]; e.Summary.Resource == "ahp-session:/appr" {
			p.Cursor = i
		}
	}
	r.key("ctrl+p")
	r.until("the approval in the peek", 20*time.Second, func(m Model) bool {
		return strings.Contains(viewText(m), "Approval needed")
	})
	r.key("a")
	r.until("the approval sent", 20*time.Second, func(m Model) bool {
		return strings.Contains(viewText(m), "approve tool: sent")
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		still := false
		for _, id := range waitingTools(t, other, "ahp-session:/appr") {
			still = still || id == before[0]
		}
		if !still {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the approval did not reach host a:\n%s", viewText(r.m))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// send applies msg as Update would receive it, running its commands.
func (r *asyncRig) send(msg tea.Msg) {
	nm, cmd := r.m.Update(msg)
	r.m = nm.(Model)
	r.run(cmd)
}

// key sends a key press.
func (r *asyncRig) key(k string) { r.send(keyPress(k)) }

// sendTurn starts a turn in session's default chat over c (subscribed to
// it by startTurn).
func sendTurn(t *testing.T, c *ahpclient.Client, session, id, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := c.Subscribe(ctx, session, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Unsubscribe(ctx, session)
	ss, err := ahpwire.DecodeSessionState(snap.State)
	if err != nil || ss.DefaultChat == "" {
		t.Fatalf("session %s: %v (%+v)", session, err, ss)
	}
	a := &ahpwire.ChatTurnStarted{TurnID: id, StartedAt: time.Now().UTC().Format(time.RFC3339Nano), Message: ahpwire.UserMessage(prompt)}
	if _, err := c.Dispatch(ctx, ss.DefaultChat, a); err != nil {
		t.Fatal(err)
	}
}

// waitIdle waits until session has no turn running.
func waitIdle(t *testing.T, c *ahpclient.Client, session string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		res, err := c.ListSessions(ctx, 100, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Items {
			if s.Resource == session && s.Status.Activity() == ahpwire.StatusIdle {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s did not become idle", session)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
