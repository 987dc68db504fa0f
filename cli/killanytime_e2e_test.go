package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestServeKilledAtAnyMoment: issue 28's promise that a host can be
// killed at any moment and every client sees the same chats afterwards,
// with nothing it was sent missing. A real `serve` is killed (-9) at a
// random moment of each of several turns (long replies streamed inline
// and as pages, paced replies, tool calls and edits) and started again;
// an attached client (ahpclient, its state reduced as every ahptui client
// reduces it) compares the chat it held when the link dropped with the
// chat the restarted host gives it: every turn it had is there with the
// same prompt, every part it had is there with its text continued (never
// shortened), every finished tool call as it was, every page still reads,
// and no turn is left running. The seed is logged for a failing run.
func TestServeKilledAtAnyMoment(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 28))
	r := newDurableRig(t)
	r.start()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir(),
		Backoff: ahpclient.BackoffPolicy{Initial: 20 * time.Millisecond, Max: 200 * time.Millisecond}})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	d := newDriver(c)
	session := "ahp-session:/" + newUUID()
	p, err := newSessionParams(session, "", r.proj)
	must(t, err)
	must(t, d.await(ctx, func(ctx context.Context) error { return c.CreateSession(ctx, p) }))
	must(t, d.subscribeSession(ctx, session))
	chat, err := d.waitChat(ctx, session)
	must(t, err)
	must(t, d.subscribeChat(ctx, chat))

	prompts := []string{"/demo stream 600k", "/demo slow 80", "/demo edit", "/demo stream 2m", "/demo tools", "/demo markdown"}
	for i, prompt := range prompts {
		delay := time.Duration(rng.IntN(400)) * time.Millisecond
		what := fmt.Sprintf("turn %d (%q, killed after %v; seed %d)", i, prompt, delay, seed)
		turn := &ahpwire.ChatTurnStarted{TurnID: newUUID(), StartedAt: nowStamp(), Message: ahpwire.UserMessage(prompt)}
		if _, err := c.Dispatch(ctx, chat, turn); err != nil {
			t.Fatalf("%s: send: %v", what, err)
		}
		run, stop := context.WithTimeout(ctx, delay)
		for run.Err() == nil {
			if _, _, err := d.next(run); err != nil && run.Err() == nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
		stop()
		r.stop(syscall.SIGKILL)
		held := heldUntilDrop(ctx, t, d, what, chat)
		r.start()
		got := reconnectedChat(ctx, t, d, what, chat)
		sameOrContinued(t, what, held, got)
		t.Logf("%s: held %d turns, the last %s with %d parts; kept", what, len(turnsOf(held)), lastState(held), lastParts(held))
		for _, uri := range pageRefs(held) {
			var res ahpwire.ResourceReadResult
			if err := c.Call(ctx, "resourceRead", ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: uri}, &res); err != nil || res.Data == "" {
				t.Fatalf("%s: page %s after the restart: %v (%d bytes)", what, uri, err, len(res.Data))
			}
		}
	}
}

// heldUntilDrop applies the client's events until its link drops and
// returns the chat as the client held it then.
func heldUntilDrop(ctx context.Context, t *testing.T, d *driver, what, chat string) ahpwire.ChatState {
	t.Helper()
	for {
		ev, _, err := d.next(ctx)
		if err != nil {
			t.Fatalf("%s: waiting for the link to drop: %v", what, err)
		}
		if e, ok := ev.(ahpclient.ConnStateEvent); ok && e.State.Phase != ahpclient.Connected {
			return d.chat(chat)
		}
	}
}

// reconnectedChat applies the client's events until it is connected again
// and holds a snapshot of chat from the restarted host, and returns it.
func reconnectedChat(ctx context.Context, t *testing.T, d *driver, what, chat string) ahpwire.ChatState {
	t.Helper()
	connected, snap := false, false
	for !connected || !snap {
		ev, _, err := d.next(ctx)
		if err != nil {
			t.Fatalf("%s: waiting for the reconnection: %v", what, err)
		}
		switch e := ev.(type) {
		case ahpclient.ConnStateEvent:
			connected = e.State.Phase == ahpclient.Connected
		case ahpclient.SnapshotEvent:
			snap = snap || e.Snapshot.Resource == chat
		case ahpclient.ChannelLostEvent:
			if e.Channel == chat {
				t.Fatalf("%s: the restarted host lost the chat", what)
			}
		}
	}
	for page := 0; page < maxPages; page++ { // older turns, as export reads them (loadWholeChat)
		cursor := d.chat(chat).TurnsNextCursor
		if cursor == "" {
			break
		}
		if err := d.c.FetchTurns(ctx, chat, cursor); err != nil {
			t.Fatalf("%s: fetch older turns: %v", what, err)
		}
		for d.chat(chat).TurnsNextCursor == cursor {
			if _, _, err := d.next(ctx); err != nil {
				t.Fatalf("%s: fetch older turns: %v", what, err)
			}
		}
	}
	return d.chat(chat)
}

// keptTurn is a turn, finished or active, as compared across a restart.
type keptTurn struct {
	id, prompt string
	parts      []ahpwire.ResponsePart
	active     bool
}

// turnsOf lists a chat's turns, the active one last.
func turnsOf(s ahpwire.ChatState) []keptTurn {
	var out []keptTurn
	for _, tu := range s.Turns {
		out = append(out, keptTurn{id: tu.ID, prompt: tu.Message.Text, parts: tu.ResponseParts})
	}
	if at := s.ActiveTurn; at != nil {
		out = append(out, keptTurn{id: at.ID, prompt: at.Message.Text, parts: at.ResponseParts.Slice(), active: true})
	}
	return out
}

// sameOrContinued fails unless got holds everything held: the same turns
// and prompts, each part of the same kind and id with its text continued,
// finished tool calls as they were, and no turn running.
func sameOrContinued(t *testing.T, what string, held, got ahpwire.ChatState) {
	t.Helper()
	after := map[string]keptTurn{}
	for _, tu := range turnsOf(got) {
		if tu.active {
			t.Fatalf("%s: turn %s is still running after the restart", what, tu.id)
		}
		after[tu.id] = tu
	}
	for _, h := range turnsOf(held) {
		g, ok := after[h.id]
		if !ok {
			hj, _ := json.Marshal(held)
			gj, _ := json.Marshal(got)
			t.Fatalf("%s: turn %s (%q) is gone after the restart\nheld %.600s\ngot %.600s", what, h.id, h.prompt, hj, gj)
		}
		if g.prompt != h.prompt || len(g.parts) < len(h.parts) {
			t.Fatalf("%s: turn %s: prompt %q → %q, %d parts → %d", what, h.id, h.prompt, g.prompt, len(h.parts), len(g.parts))
		}
		for i, hp := range h.parts {
			gp := g.parts[i]
			if gp.Kind != hp.Kind || gp.ID != hp.ID || !strings.HasPrefix(gp.Content, hp.Content) {
				t.Fatalf("%s: turn %s part %d: %s %q (%d bytes) became %s %q (%d bytes)", what, h.id, i,
					hp.Kind, hp.ID, len(hp.Content), gp.Kind, gp.ID, len(gp.Content))
			}
			if hp.Ref != nil && (gp.Ref == nil || gp.Ref.URI != hp.Ref.URI) {
				t.Fatalf("%s: turn %s part %d: page %s became %+v", what, h.id, i, hp.Ref.URI, gp.Ref)
			}
			if hc := hp.ToolCall; hc != nil {
				gc := gp.ToolCall
				finished := hc.Status == ahpwire.ToolCompleted || hc.Status == ahpwire.ToolCancelled
				if gc == nil || gc.ToolCallID != hc.ToolCallID || finished && toolJSON(gc) != toolJSON(hc) {
					t.Fatalf("%s: turn %s tool call %s: %s became %s", what, h.id, hc.ToolCallID, toolJSON(hc), toolJSON(gc))
				}
			}
		}
	}
}

// toolJSON is a tool call's state as JSON (for comparing and messages).
func toolJSON(tc *ahpwire.ToolCallState) string {
	b, _ := json.Marshal(tc)
	return string(b)
}

// pageRefs lists the URIs of a chat's contentRef parts.
func pageRefs(s ahpwire.ChatState) []string {
	var out []string
	for _, tu := range turnsOf(s) {
		for _, p := range tu.parts {
			if p.Ref != nil {
				out = append(out, p.Ref.URI)
			}
		}
	}
	return out
}

// lastState says whether the chat's last turn was running.
func lastState(s ahpwire.ChatState) string {
	if s.ActiveTurn != nil {
		return "running"
	}
	return "finished"
}

// lastParts is the number of parts of the chat's last turn.
func lastParts(s ahpwire.ChatState) int {
	ts := turnsOf(s)
	if len(ts) == 0 {
		return 0
	}
	return len(ts[len(ts)-1].parts)
}
