package acp

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// durations are the only wall-clock values in a turn's actions.
var durations = regexp.MustCompile(`"duration":\d+`)

// stream renders the chat actions k saw from index from until a turn's
// end as golden lines: the action type and its JSON, durations zeroed and
// the working directory as $DIR. The text of one part is folded into the
// action that opened it (foldText): how many actions it takes depends on
// how the chunks arrived (the bridge coalesces those that come together).
func (e *env) stream(k *client2, chat string, from int) (string, bool) {
	var acts []ahpwire.Action
	all := k.actions(chat)
	ended := false
	for _, en := range all[min(from, len(all)):] {
		switch en.Action.(type) {
		case *ahpwire.ChatTurnStarted, *ahpwire.ChatToolCallConfirmed:
			continue // the client's own echoes
		case *ahpwire.ChatChangesetsChanged:
			// fs/write_text_file is a request, which the SDK serves
			// concurrently with the (ordered) notifications: its place
			// among the tool call's actions varies.
			continue
		}
		acts = foldText(acts, en.Action)
		switch en.Action.(type) {
		case *ahpwire.ChatTurnComplete, *ahpwire.ChatError, *ahpwire.ChatTurnCancelled:
			ended = true
		}
		if ended {
			break
		}
	}
	var b strings.Builder
	for _, a := range acts {
		j, err := json.Marshal(a)
		if err != nil {
			e.t.Fatal(err)
		}
		line := durations.ReplaceAllString(string(j), `"duration":0`)
		line = strings.ReplaceAll(line, e.dir, "$DIR")
		b.WriteString(a.ActionType() + " " + line + "\n")
	}
	return b.String(), ended
}

// foldText appends a to acts, or folds it into the last action when a
// continues that action's text part (a chat/delta or chat/reasoning after
// the part's chat/responsePart).
func foldText(acts []ahpwire.Action, a ahpwire.Action) []ahpwire.Action {
	var part, text string
	switch d := a.(type) {
	case *ahpwire.ChatDelta:
		part, text = d.PartID, d.Content
	case *ahpwire.ChatReasoning:
		part, text = d.PartID, d.Content
	default:
		return append(acts, a)
	}
	if n := len(acts); n > 0 {
		if rp, ok := acts[n-1].(*ahpwire.ChatResponsePart); ok && rp.Part.ID == part {
			folded := *rp
			folded.Part.Content += text
			acts[n-1] = &folded
			return acts
		}
	}
	return append(acts, a)
}

// The AHP action streams of the main scripts are pinned as goldens
// (testdata/golden/acp_*.golden; -update rewrites them). The recording
// client subscribes once and never polls snapshots (a re-subscribe drops
// the envelopes its snapshot covers).
func TestGoldenActionStreams(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "golden")
	k := e.dial()
	e.open(k, "ahp-session:/golden")
	record := func(name, id, text string, answer func(from int)) {
		from := len(k.actions(chat))
		if _, err := k.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnStarted{TurnID: id, StartedAt: "2026-11-27T00:00:00.000Z",
			Message: ahpwire.UserMessage(text)}); err != nil {
			t.Fatal(err)
		}
		if answer != nil {
			answer(from)
		}
		var got string
		e.eventually("the end of "+name, func() (done bool) { got, done = e.stream(k, chat, from); return })
		testkit.Golden(t, "acp_"+name, got)
	}
	for _, script := range []string{"text", "thought", "plan", "diff", "fail", "refuse", "terminal"} {
		record(script, "g-"+script, script, nil)
	}
	record("tool", "g-tool", "tool", func(from int) {
		e.eventually("the confirmation", func() bool {
			got, _ := e.stream(k, chat, from)
			return strings.Contains(got, `"options"`)
		})
		if _, err := k.c.Dispatch(e.ctx, chat, &ahpwire.ChatToolCallConfirmed{TurnID: "g-tool", ToolCallID: "t-1",
			Approved: true, Confirmed: ahpwire.ConfirmedUserAction, SelectedOptionID: "yes"}); err != nil {
			t.Fatal(err)
		}
	})
}
