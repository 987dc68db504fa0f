package demo

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// applyTurn reduces one recorded turn into s through AHP's chat reducer
// (ahpstate), as the host would: the client's chat/turnStarted (or
// chat/turnResume), then every recorded action in host order. Client
// actions must pass ahpstate.ValidateChatAction, except the deliberate noise
// for an unknown input request, which must be rejected. Every accepted
// action must change the state: a reducer no-op would mean the agent sent
// something AHP ignores.
func applyTurn(t *testing.T, s ahpwire.ChatState, turnID, text string, resume bool, rec *recorder) ahpwire.ChatState {
	t.Helper()
	first := ahpwire.Action(&ahpwire.ChatTurnStarted{TurnID: turnID, StartedAt: ahpstate.FormatTime(fixedNow()), Message: ahpwire.UserMessage(text)})
	if resume {
		first = &ahpwire.ChatTurnResume{TurnID: turnID}
	}
	server := map[ahpwire.Action]bool{}
	for _, a := range rec.emitted {
		server[a] = true
	}
	for i, a := range append([]ahpwire.Action{first}, rec.actions...) {
		if !server[a] {
			err := ahpstate.ValidateChatAction(s, a, "tui-1")
			noise := false
			if c, ok := a.(*ahpwire.ChatInputAnswerChanged); ok && c.RequestID == "other" {
				noise = true
			}
			if noise {
				if err == nil {
					t.Fatalf("action %d: answer for an unknown request was accepted", i)
				}
				continue
			}
			if err != nil {
				t.Fatalf("action %d %s rejected: %v", i, a.ActionType(), err)
			}
		}
		before := marshalState(t, s)
		s = ahpstate.ReduceChat(s, a)
		if bytes.Equal(before, marshalState(t, s)) {
			b, _ := ahpwire.MarshalAction(a)
			t.Fatalf("action %d is a reducer no-op: %.300s", i, b)
		}
	}
	return s
}

func marshalState(t *testing.T, s ahpwire.ChatState) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// turnText returns the concatenated markdown of a finished turn's parts.
func turnText(tn ahpwire.Turn, kind string) string {
	var b strings.Builder
	for _, p := range tn.ResponseParts {
		if p.Kind == kind {
			b.WriteString(p.Content)
		}
	}
	return b.String()
}

// toolStates maps tool call ids of a turn to their statuses.
func toolStates(tn ahpwire.Turn) map[string]string {
	m := map[string]string{}
	for _, p := range tn.ResponseParts {
		if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil {
			m[p.ToolCall.ToolCallID] = p.ToolCall.Status
		}
	}
	return m
}

func newChat() ahpwire.ChatState {
	return ahpwire.ChatState{Resource: "ahp-chat:/c1", Title: "demo", ModifiedAt: ahpstate.FormatTime(fixedNow())}
}

func TestScriptsReduceThroughAHP(t *testing.T) {
	dir := projectDir(t)
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			rec, err := runTurn(t, testAgent(dir), "t1", sc.text, false, sc.decide)
			if err != nil {
				t.Fatal(err)
			}
			seq := checkSequence(t, "t1", rec.actions, nil)
			s := applyTurn(t, newChat(), "t1", sc.text, false, rec)
			if s.ActiveTurn != nil || len(s.Turns) != 1 {
				t.Fatalf("turn still active or missing: %d turns", len(s.Turns))
			}
			tn := s.Turns[0]
			wantState := ahpwire.TurnComplete
			if sc.name == "error" {
				wantState = ahpwire.TurnError
			}
			if tn.State != wantState || tn.Usage == nil && wantState == ahpwire.TurnComplete {
				t.Fatalf("turn state %q usage %v, want %q", tn.State, tn.Usage, wantState)
			}
			if got, want := turnText(tn, ahpwire.PartMarkdown), markdownText(rec.emitted); got != want {
				t.Fatalf("reduced markdown differs from emitted (%d vs %d bytes)", len(got), len(want))
			}
			if got, want := turnText(tn, ahpwire.PartReasoning), reasoningText(rec.emitted); got != want {
				t.Fatalf("reduced reasoning differs: %q vs %q", got, want)
			}
			if got := toolStates(tn); !mapsEqual(got, seq.tools) {
				t.Fatalf("reduced tool states %v, sequence check %v", got, seq.tools)
			}
			// The final state survives a JSON round trip.
			raw := marshalState(t, s)
			back, err := ahpwire.DecodeChatState(raw)
			if err != nil || !bytes.Equal(marshalState(t, back), raw) {
				t.Fatalf("state round trip: %v", err)
			}
		})
	}
}

func TestDeniedToolsReduceToCancelled(t *testing.T) {
	rec, err := runTurn(t, testAgent(projectDir(t)), "t1", "/demo tools", false, policy{command: true}.decider())
	if err != nil {
		t.Fatal(err)
	}
	s := applyTurn(t, newChat(), "t1", "/demo tools", false, rec)
	var edit, cmd *ahpwire.ToolCallState
	for _, p := range s.Turns[0].ResponseParts {
		if p.Kind != ahpwire.PartToolCall {
			continue
		}
		switch p.ToolCall.ToolCallID {
		case "t1.tc-edit_file":
			edit = p.ToolCall
		case "t1.tc-run_command":
			cmd = p.ToolCall
		}
	}
	if edit == nil || edit.Status != ahpwire.ToolCancelled || edit.Reason != ahpwire.CancelDenied || edit.ReasonMessage == nil {
		t.Fatalf("edit %+v", edit)
	}
	if cmd == nil || cmd.Status != ahpwire.ToolCancelled || cmd.Reason != ahpwire.CancelResultDenied {
		t.Fatalf("command %+v", cmd)
	}
}

func TestErrorResumeReducesThroughAHP(t *testing.T) {
	ag := testAgent("")
	rec, err := runTurn(t, ag, "t1", "/demo error", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := applyTurn(t, newChat(), "t1", "/demo error", false, rec)
	if !ahpstate.Resumable(s, "t1") {
		t.Fatal("the error turn is not resumable")
	}
	rec2, err := runTurn(t, ag, "t1", "/demo error", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	s = applyTurn(t, s, "t1", "/demo error", true, rec2)
	if s.ActiveTurn != nil || len(s.Turns) != 1 || s.Turns[0].State != ahpwire.TurnComplete {
		t.Fatalf("after resume: %d turns, state %q", len(s.Turns), s.Turns[0].State)
	}
	md := turnText(s.Turns[0], ahpwire.PartMarkdown)
	if !strings.Contains(md, "2. Step two") || !strings.Contains(md, "3. Step three") {
		t.Fatalf("resumed transcript:\n%s", md)
	}
	hasErr := false
	for _, p := range s.Turns[0].ResponseParts {
		hasErr = hasErr || p.Kind == ahpwire.PartError
	}
	if !hasErr {
		t.Fatal("the error part vanished from the resumed turn")
	}
}

func TestInputReducesThroughAHP(t *testing.T) {
	final := map[string]ahpwire.ChatInputAnswer{
		"name": submitted(ahpwire.TextAnswer("demo")), "tests": submitted(ahpwire.BoolAnswer(true)),
		"language": submitted(ahpwire.SelectedAnswer("go")),
	}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo input", false, answerInput(ahpwire.InputAccept, nil, final))
	if err != nil {
		t.Fatal(err)
	}
	s := applyTurn(t, newChat(), "t1", "/demo input", false, rec)
	var part *ahpwire.ResponsePart
	for i, p := range s.Turns[0].ResponseParts {
		if p.Kind == ahpwire.PartInputRequest {
			part = &s.Turns[0].ResponseParts[i]
		}
	}
	if part == nil || part.Response != ahpwire.InputAccept || len(part.Request.Answers) != 3 {
		t.Fatalf("input part %+v", part)
	}
	// Accepting without the required answers is rejected by the host rules.
	req := find[*ahpwire.ChatInputRequested](rec.emitted)
	st := ahpstate.ReduceChat(newChat(), &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: ahpstate.FormatTime(fixedNow()), Message: ahpwire.UserMessage("/demo input")})
	st = ahpstate.ReduceChat(st, req)
	if err := ahpstate.ValidateChatAction(st, &ahpwire.ChatInputCompleted{RequestID: req.Request.ID, Response: ahpwire.InputAccept}, "tui-1"); err == nil {
		t.Fatal("accept without required answers was not rejected: the request's required flags are not enforced")
	}
}
