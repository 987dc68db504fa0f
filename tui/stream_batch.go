package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// waitForEvent blocks on the next client event. The root re-arms it after
// handling each connEventMsg, so exactly one is outstanding. A chat
// snapshot is decoded here, off the UI goroutine: its size is the chat's
// (tens of MB from a host that sends long replies inline), and Update then
// only projects the decoded state.
func waitForEvent(ctx context.Context, b app.Backend) tea.Cmd {
	return waitForEventAfter(ctx, b, time.Time{})
}

// waitForEventAfter is waitForEvent taking nothing before notBefore (a
// batch's pumpPace, stream_batch.go).
func waitForEventAfter(ctx context.Context, b app.Backend, notBefore time.Time) tea.Cmd {
	if bb, ok := b.(batchBackend); ok {
		return waitForBatch(ctx, b, bb, notBefore) // stream_batch.go
	}
	return func() tea.Msg {
		ev, err := b.Next(ctx)
		if err != nil {
			return pumpStoppedMsg{err: err, b: b}
		}
		return eventMsg(ev, b)
	}
}

// eventMsg wraps a client event for Update, decoding a snapshot's state
// (it runs in the event pump's command, off the UI goroutine: a chat's
// snapshot may be tens of MB). A URI of another dialect (<provider>:/…)
// is decoded as a chat's, which only the model can confirm.
func eventMsg(ev ahpclient.Event, b app.Backend) connEventMsg {
	msg := connEventMsg{ev: ev, b: b}
	if se, ok := ev.(ahpclient.SnapshotEvent); ok {
		kind := ahpstate.MirrorKind(se.Snapshot.Resource)
		if kind == "" && mayBeChat(se.Snapshot.Resource) {
			kind = ahpstate.ScopeChat
		}
		if kind != "" {
			st, err := ahpstate.DecodeState(kind, se.Snapshot.State)
			msg.decoded = &decodedState{kind: kind, state: st, err: err}
		}
	}
	return msg
}

// mayBeChat reports whether a snapshot of uri may be a chat's: an ahp-chat:
// URI, or one of another dialect (<provider>:/…) that only the model can
// place; root, session and terminal/changeset URIs are not.
func mayBeChat(uri string) bool {
	return strings.HasPrefix(uri, chatScheme) || !(uri == rootChannel || strings.HasPrefix(uri, sessionScheme) || app.IsSideChannel(uri))
}

// connEventMsg carries one event from the client's ordered stream.
type connEventMsg struct {
	ev      ahpclient.Event
	b       app.Backend   // the backend it came from (nil: the attached one)
	decoded *decodedState // a snapshot's state, decoded by the pump
}

// decodedState is a snapshot's state decoded off the UI goroutine as a
// channel of kind (an ahpstate.MirrorKind value).
type decodedState struct {
	kind  string
	state any
	err   error
}

// pumpStoppedMsg reports that the event stream ended (client closed).
type pumpStoppedMsg struct {
	err error
	b   app.Backend // the backend whose stream ended (nil: the attached one)
}

// maxBatch bounds how many queued events one Update applies: a model
// streams tens of thousands of small deltas, and those that arrived
// between two frames are applied (reduced, derived, acknowledged) and drawn
// once, not one Update and one View each. The bound keeps one Update short
// (a key typed meanwhile waits for at most one batch): 2,048 deltas cost
// about a millisecond (BenchmarkStreamDeltas), and with one batch per
// pumpPace it still lets 120,000 deltas a second through, more than the
// read loop delivers.
const maxBatch = 2048

// pumpPace is the least time between two batches of one backend: about a
// frame at Bubble Tea's 60 fps, so a fast stream is applied once per frame
// drawn (not after every few deltas: the read loop hands them over as they
// come, and each wake-up of the UI goroutine cost an Update and a View).
// The UI goroutine then sleeps between frames, and a key typed during a
// stream finds it idle (echo while streaming, issue 22). A take of one
// event is not paced (a slow stream or a single answer is applied at
// once), nor is the take after a full batch (a backlog is caught up).
const pumpPace = 16 * time.Millisecond

// batchBackend is a backend that can hand over every event already queued
// at once (*ahpclient.Client with Options.ExplicitAck).
type batchBackend interface {
	NextBatch(ctx context.Context, dst []ahpclient.Event, max int) ([]ahpclient.Event, error)
}

// connBatchMsg is a run of events of one backend, in stream order, that
// were queued together when the pump woke.
type connBatchMsg struct {
	evs []connEventMsg
	b   app.Backend
	// next is when the pump may take again: pumpPace after this take
	// began (zero after a full batch).
	next time.Time
}

// waitForBatch is waitForEvent for a backend that batches: one message for
// one event (as before), a connBatchMsg for several. It takes nothing
// before notBefore.
func waitForBatch(ctx context.Context, b app.Backend, bb batchBackend, notBefore time.Time) tea.Cmd {
	return func() tea.Msg {
		if !pace(ctx, notBefore) {
			return pumpStoppedMsg{err: ctx.Err(), b: b}
		}
		woke := time.Now()
		evs, err := bb.NextBatch(ctx, nil, maxBatch)
		if len(evs) == 0 {
			if err == nil {
				err = context.Canceled
			}
			return pumpStoppedMsg{err: err, b: b}
		}
		if len(evs) == 1 {
			return eventMsg(evs[0], b)
		}
		out := connBatchMsg{evs: make([]connEventMsg, len(evs)), b: b}
		if len(evs) < maxBatch { // a full batch leaves a backlog: no wait
			out.next = woke.Add(pumpPace) // a frame from this take's start, whatever it cost
		}
		for i, ev := range evs {
			out.evs[i] = eventMsg(ev, b)
		}
		return out
	}
}

// pace waits until t (a zero t: not at all); false when ctx ended first.
func pace(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if t.IsZero() || d <= 0 {
		return true
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// onBatch applies a batch in order and re-arms the pump once. Envelopes
// are acknowledged together after the whole batch was applied; the chat's
// streamed text (deltas, reasoning) goes straight to the chat, and the
// prompts are synced once for the batch.
func (m *Model) onBatch(msg connBatchMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, 4)
	add := func(c tea.Cmd) {
		if c != nil {
			cmds = append(cmds, c)
		}
	}
	if msg.b != nil && msg.b != m.c.Backend {
		pump := true
		for _, e := range msg.evs {
			c, ok := m.applyWatchEvent(msg.b, e)
			add(c)
			pump = pump && ok
		}
		if pump {
			add(waitForEventAfter(m.c.Ctx, msg.b, msg.next))
		}
		return tea.Batch(cmds...)
	}
	acks := make([]ahpclient.EnvelopeEvent, 0, len(msg.evs))
	streamed := false
	var run textRun // consecutive deltas of one part, applied as one
	flush := func() {
		if env, ok := run.take(); ok {
			add(m.chat.OnEnvelope(env, m.c.Mirror.Apply(env)))
		}
	}
	for _, e := range msg.evs {
		if ev, ok := e.ev.(ahpclient.EnvelopeEvent); ok && m.isStreamedText(ev.Envelope) {
			if !run.add(ev.Envelope) {
				flush()
				if !run.add(ev.Envelope) { // not mergeable (_meta): as it came
					add(m.chat.OnEnvelope(ev.Envelope, m.c.Mirror.Apply(ev.Envelope)))
				}
			}
			streamed = true
			acks = append(acks, ev)
			continue
		}
		flush()
		if ev, ok := e.ev.(ahpclient.EnvelopeEvent); ok {
			add(m.onEnvelope(ev.Envelope))
			acks = append(acks, ev)
			continue
		}
		add(m.applyEvent(e))
	}
	flush()
	ahpclient.AckAll(acks)
	if streamed {
		add(m.syncPrompts())
	}
	add(waitForEventAfter(m.c.Ctx, m.c.Backend, msg.next))
	return tea.Batch(cmds...)
}

// isStreamedText reports an accepted delta of the open chat's text or
// reasoning: it only grows a block, so it needs none of onEnvelope's
// bookkeeping besides the chat's own.
func (m *Model) isStreamedText(env ahpwire.ActionEnvelope) bool {
	if m.chat == nil || env.Channel != m.chat.URI || env.RejectionReason != "" {
		return false
	}
	switch env.Action.(type) {
	case *ahpwire.ChatDelta, *ahpwire.ChatReasoning:
		return true
	}
	return false
}

// onlyStreamedText reports a pump message that only grew the open chat's
// streamed text: the transcript is laid out again at the next frame, so
// what is on screen (the terminals and content references syncExt
// follows) cannot have changed, and syncExt waits for that frame.
func (m *Model) onlyStreamedText(msg tea.Msg) bool {
	isText := func(ev ahpclient.Event) bool {
		e, ok := ev.(ahpclient.EnvelopeEvent)
		return ok && m.isStreamedText(e.Envelope)
	}
	switch msg := msg.(type) {
	case connEventMsg:
		return (msg.b == nil || msg.b == m.c.Backend) && isText(msg.ev)
	case connBatchMsg:
		if msg.b != nil && msg.b != m.c.Backend {
			return false
		}
		for _, e := range msg.evs {
			if !isText(e.ev) {
				return false
			}
		}
		return true
	}
	return false
}

// textRun merges consecutive streamed-text envelopes of one batch that
// append to the same part (same channel, action type, turn and part, no
// _meta) into one envelope whose content is theirs in order: AHP's
// reducer appends the same text either way, and the chat's reduce and
// derive run once for the run instead of once per delta (a batch of a
// model's stream is hundreds of them). Each envelope is still
// acknowledged, in order, with the batch.
type textRun struct {
	last ahpwire.ActionEnvelope
	key  [3]string // action type, turn, part
	buf  []byte
	n    int // envelopes in the run
}

// add adds env to the run when it continues it, or starts a run with it
// when the run is empty; false: env does not continue the run (the caller
// applies the run, then env).
func (r *textRun) add(env ahpwire.ActionEnvelope) bool {
	var key [3]string
	var content string
	switch a := env.Action.(type) {
	case *ahpwire.ChatDelta:
		if len(a.Meta) > 0 {
			return false
		}
		key, content = [3]string{"d", a.TurnID, a.PartID}, a.Content
	case *ahpwire.ChatReasoning:
		if len(a.Meta) > 0 {
			return false
		}
		key, content = [3]string{"r", a.TurnID, a.PartID}, a.Content
	default:
		return false
	}
	switch {
	case r.n == 0:
		r.key, r.buf = key, append(r.buf[:0], content...)
	case key != r.key || env.Channel != r.last.Channel:
		return false
	default:
		r.buf = append(r.buf, content...)
	}
	r.last = env
	r.n++
	return true
}

// take returns the run as one envelope (the last envelope with the whole
// run's content; a run of one as it came) and empties it; false when the
// run is empty.
func (r *textRun) take() (ahpwire.ActionEnvelope, bool) {
	n := r.n
	r.n = 0
	switch n {
	case 0:
		return ahpwire.ActionEnvelope{}, false
	case 1:
		return r.last, true
	}
	env := r.last
	switch a := env.Action.(type) {
	case *ahpwire.ChatDelta:
		c := *a
		c.Content = string(r.buf)
		env.Action = &c
	case *ahpwire.ChatReasoning:
		c := *a
		c.Content = string(r.buf)
		env.Action = &c
	}
	return env, true
}
