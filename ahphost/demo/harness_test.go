package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// fixedNow is the clock of every test agent: durations are always 0, so two
// runs produce byte-identical action sequences.
func fixedNow() time.Time { return time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC) }

// decider answers a server action by returning client actions to dispatch
// (e.g. a chat/toolCallConfirmed for a pending tool call), or nil.
type decider func(a ahpwire.Action) []ahpwire.Action

// recorder is a fake host: it records emitted actions, and feeds the
// decider's answers into the Client channel.
type recorder struct {
	t       *testing.T
	actions []ahpwire.Action // emitted by the agent and dispatched by the "client", in host order
	emitted []ahpwire.Action // emitted by the agent only
	client  chan ahpwire.Action
	decide  decider
}

func newRecorder(t *testing.T, d decider) *recorder {
	return &recorder{t: t, client: make(chan ahpwire.Action, 64), decide: d}
}

// emit is the Turn.Emit of the fake host.
func (rec *recorder) emit(a ahpwire.Action) {
	rec.actions = append(rec.actions, a)
	rec.emitted = append(rec.emitted, a)
	if rec.decide == nil {
		return
	}
	for _, c := range rec.decide(a) {
		rec.actions = append(rec.actions, c)
		rec.client <- c
	}
}

// runTurn runs one turn to completion with the given agent and decider.
func runTurn(t *testing.T, ag *Agent, turnID, text string, resume bool, d decider) (*recorder, error) {
	t.Helper()
	rec := newRecorder(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := ag.Run(ctx, Turn{Chat: "ahp-chat:/c1", TurnID: turnID, Text: text, Resume: resume,
		StartedAt: fixedNow(), Emit: rec.emit, Client: rec.client})
	return rec, err
}

// testAgent returns an instant, fixed-clock agent on dir.
func testAgent(dir string) *Agent { return New(Options{Dir: dir, Now: fixedNow}) }

// encode marshals actions into one JSON line each.
func encode(t *testing.T, as []ahpwire.Action) []string {
	t.Helper()
	out := make([]string, len(as))
	for i, a := range as {
		b, err := ahpwire.MarshalAction(a)
		if err != nil {
			t.Fatalf("marshal action %d (%s): %v", i, a.ActionType(), err)
		}
		out[i] = string(b)
	}
	return out
}

// markdownText concatenates the markdown content the agent emitted.
func markdownText(as []ahpwire.Action) string {
	var b strings.Builder
	for _, a := range as {
		switch v := a.(type) {
		case *ahpwire.ChatResponsePart:
			if v.Part.Kind == ahpwire.PartMarkdown {
				b.WriteString(v.Part.Content)
			}
		case *ahpwire.ChatDelta:
			b.WriteString(v.Content)
		}
	}
	return b.String()
}

// reasoningText concatenates the reasoning content the agent emitted.
func reasoningText(as []ahpwire.Action) string {
	var b strings.Builder
	for _, a := range as {
		if v, ok := a.(*ahpwire.ChatReasoning); ok {
			b.WriteString(v.Content)
		}
	}
	return b.String()
}

// last returns the last action.
func last(as []ahpwire.Action) ahpwire.Action {
	if len(as) == 0 {
		return nil
	}
	return as[len(as)-1]
}

// count returns how many actions have type typ.
func count(as []ahpwire.Action, typ string) int {
	n := 0
	for _, a := range as {
		if a.ActionType() == typ {
			n++
		}
	}
	return n
}

// dump renders actions for failure messages.
func dump(as []ahpwire.Action) string {
	var b strings.Builder
	for _, a := range as {
		j, _ := json.Marshal(a)
		if len(j) > 300 {
			j = append(j[:300], "…"...)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}
