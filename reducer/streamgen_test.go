package reducer

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// streamGen generates random but plausible AHP chat action streams:
// several turns with reasoning, text, tool calls through every state
// (confirm, deny, result confirmation, auth, content changes), input
// requests, usage, errors (some resumable and resumed), cancels, other part
// kinds, pending messages, truncation and a sprinkling of actions that AHP
// ignores (wrong turn, unknown ids, wrong states, rejected envelopes).
type streamGen struct {
	r       *rand.Rand
	turn    int
	active  string
	parts   []string // markdown/reasoning part ids of the active turn
	kinds   map[string]string
	tools   []string
	inputs  []string
	done    []string // finished turn ids
	queued  []string
	out     []ahpwire.ActionEnvelope
	seq     uint64
	clock   time.Time
	resumes int
}

const genChat = "ahp-chat:/c1"

func newStreamGen(seed uint64) *streamGen {
	return &streamGen{
		r:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		kinds: map[string]string{},
		clock: time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC),
	}
}

func (g *streamGen) emit(a ahpwire.Action) {
	g.seq++
	env := ahpwire.ActionEnvelope{Channel: genChat, ServerSeq: g.seq, Action: a}
	if g.r.IntN(40) == 0 {
		env.RejectionReason = "rejected by the host"
	}
	if g.r.IntN(60) == 0 {
		env.Channel = "ahp-chat:/other"
	}
	g.out = append(g.out, env)
}

func (g *streamGen) pick(xs []string) string {
	if len(xs) == 0 || g.r.IntN(12) == 0 {
		return fmt.Sprintf("missing-%d", g.r.IntN(3))
	}
	return xs[g.r.IntN(len(xs))]
}

func (g *streamGen) turnID() string {
	if g.r.IntN(15) == 0 {
		return "wrong-turn"
	}
	return g.active
}

func (g *streamGen) text() string {
	words := []string{"alpha ", "β ", "gamma\n", "`code` ", "**bold** ", "", "δέλτα ", "\x1b[31mred\x1b[0m "}
	var s string
	for n := g.r.IntN(4); n >= 0; n-- {
		s += words[g.r.IntN(len(words))]
	}
	return s
}

func (g *streamGen) rich() *ahpwire.StringOrMarkdown {
	if g.r.IntN(3) == 0 {
		return nil
	}
	v := ahpwire.StringOrMarkdown{Text: g.text(), Markdown: g.r.IntN(2) == 0}
	return &v
}

// generate returns a stream of about n steps.
func (g *streamGen) generate(n int) []ahpwire.ActionEnvelope {
	for i := 0; i < n; i++ {
		if g.active == "" {
			g.idleStep()
			continue
		}
		g.activeStep()
	}
	if g.active != "" && g.r.IntN(2) == 0 {
		g.emit(&ahpwire.ChatTurnComplete{TurnID: g.active, Duration: ahpwire.Ptr(int64(g.r.IntN(9000)))})
	}
	return g.out
}

func (g *streamGen) idleStep() {
	switch x := g.r.IntN(20); {
	case x < 13:
		g.startTurn()
	case x < 15:
		id := fmt.Sprintf("q%d", g.r.IntN(4))
		g.queued = append(g.queued, id)
		kind := ahpwire.PendingQueued
		if g.r.IntN(3) == 0 {
			kind = ahpwire.PendingSteering
		}
		g.emit(&ahpwire.ChatPendingMessageSet{Kind: kind, ID: id, Message: ahpwire.UserMessage(g.text())})
	case x < 16:
		g.emit(&ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: g.pick(g.queued)})
	case x < 17:
		g.emit(&ahpwire.ChatQueuedMessagesReordered{Order: []string{g.pick(g.queued), g.pick(g.queued)}})
	case x < 18 && len(g.done) > 0:
		if g.r.IntN(4) == 0 {
			g.emit(&ahpwire.ChatTruncated{})
			g.done = nil
		} else {
			i := g.r.IntN(len(g.done))
			g.emit(&ahpwire.ChatTruncated{TurnID: g.done[i]})
			g.done = g.done[:i+1]
		}
	case x < 19:
		g.emit(&ahpwire.ChatActivityChanged{Activity: g.text()})
	case x < 20 && g.r.IntN(2) == 0:
		g.turnsLoaded()
	default:
		g.emit(&ahpwire.ChatDelta{TurnID: "t-none", PartID: "p", Content: "x"})
	}
}

// turnsLoaded prepends one or two older turns (sometimes one that is
// already present, which AHP skips).
func (g *streamGen) turnsLoaded() {
	var turns []ahpwire.Turn
	for i := g.r.IntN(2); i >= 0; i-- {
		id := fmt.Sprintf("old%d", g.r.IntN(4))
		if len(g.done) > 0 && g.r.IntN(4) == 0 {
			id = g.done[0]
		}
		tc := &ahpwire.ToolCallState{Status: ahpwire.ToolCancelled, ToolCallID: "otc", ToolName: "x", DisplayName: "X",
			InvocationMessage: ahpwire.PlainPtr(""), Reason: ahpwire.CancelSkipped}
		turns = append(turns, ahpwire.Turn{
			ID: id, StartedAt: "2026-10-01T09:00:00.000Z", Duration: ahpwire.Ptr(int64(1200)),
			Message:       ahpwire.UserMessage("old " + id),
			ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("m", g.text()), {Kind: ahpwire.PartToolCall, ToolCall: tc}},
			Usage:         &ahpwire.UsageInfo{OutputTokens: ahpwire.Ptr(int64(7))}, State: ahpwire.TurnComplete,
		})
	}
	g.emit(&ahpwire.ChatTurnsLoaded{Turns: turns, TurnsNextCursor: "c"})
	for _, t := range turns {
		g.done = append([]string{t.ID}, g.done...)
	}
}

func (g *streamGen) startTurn() {
	g.turn++
	g.active = fmt.Sprintf("t%d", g.turn)
	g.parts, g.tools, g.inputs = nil, nil, nil
	g.clock = g.clock.Add(time.Duration(g.r.IntN(100000)) * time.Millisecond)
	a := &ahpwire.ChatTurnStarted{
		TurnID: g.active, StartedAt: g.clock.Format("2006-01-02T15:04:05.000Z"),
		Message: ahpwire.UserMessage(g.text()),
	}
	if g.r.IntN(4) == 0 {
		a.Message.Attachments = []ahpwire.MessageAttachment{{Type: ahpwire.AttachmentResource, Label: "file.go", URI: "file:///file.go"}}
	}
	if len(g.queued) > 0 && g.r.IntN(2) == 0 {
		a.QueuedMessageID = g.pick(g.queued)
	}
	if g.r.IntN(3) == 0 {
		a.StartedAt = "" // 0.5-era host
	}
	g.emit(a)
}

func (g *streamGen) endTurn() {
	d := ahpwire.Ptr(int64(g.r.IntN(20000)) - 50)
	if g.r.IntN(4) == 0 {
		d = nil
	}
	id := g.turnID()
	switch x := g.r.IntN(10); {
	case x < 5:
		g.emit(&ahpwire.ChatTurnComplete{TurnID: id, Duration: d})
	case x < 7:
		g.emit(&ahpwire.ChatTurnCancelled{TurnID: id, Duration: d})
	default:
		e := ahpwire.ErrorInfo{ErrorType: "rate_limit", Message: g.text()}
		if g.r.IntN(4) == 0 {
			g.emit(&ahpwire.ChatError{TurnID: id, Duration: d, Error: &e}) // 0.5 shape
		} else {
			p := ahpwire.ErrorPart(e, g.r.IntN(2) == 0)
			g.emit(&ahpwire.ChatError{TurnID: id, Duration: d, Part: &p})
		}
		if id == g.active && g.r.IntN(2) == 0 && g.resumes < 3 {
			g.resumes++
			g.emit(&ahpwire.ChatTurnResume{TurnID: id})
			if g.r.IntN(2) == 0 {
				return // stays active if the error was resumable
			}
		}
	}
	if id == g.active {
		g.done = append(g.done, g.active)
		g.active = ""
	}
}

func (g *streamGen) activeStep() {
	switch x := g.r.IntN(100); {
	case x < 10:
		g.newTextPart()
	case x < 35:
		id := g.pick(g.parts)
		if g.kinds[id] == ahpwire.PartReasoning && g.r.IntN(5) != 0 {
			g.emit(&ahpwire.ChatReasoning{TurnID: g.turnID(), PartID: id, Content: g.text()})
		} else {
			g.emit(&ahpwire.ChatDelta{TurnID: g.turnID(), PartID: id, Content: g.text()})
		}
	case x < 42:
		id := fmt.Sprintf("tc%d-%d", g.turn, len(g.tools))
		g.tools = append(g.tools, id)
		a := &ahpwire.ChatToolCallStart{TurnID: g.turnID(), ToolCallID: id, ToolName: "bash", DisplayName: "Run"}
		if g.r.IntN(3) == 0 {
			a.Contributor = &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "m1"}
		}
		if g.r.IntN(3) == 0 {
			a.Intention = "list files"
		}
		g.emit(a)
	case x < 72:
		g.toolStep()
	case x < 75:
		u := ahpwire.UsageInfo{InputTokens: ahpwire.Ptr(int64(g.r.IntN(1000))), OutputTokens: ahpwire.Ptr(int64(g.r.IntN(500))), Model: "m"}
		g.emit(&ahpwire.ChatUsage{TurnID: g.turnID(), Usage: u})
	case x < 82:
		g.inputStep()
	case x < 86:
		g.otherPart()
	case x < 88:
		g.emit(&ahpwire.ChatActivityChanged{Activity: g.text()})
	case x < 89:
		g.startTurn() // a new turn while one is active: AHP drops the active one
	default:
		g.endTurn()
	}
}

func (g *streamGen) newTextPart() {
	id := fmt.Sprintf("p%d", g.r.IntN(6))
	kind := ahpwire.PartMarkdown
	if g.r.IntN(2) == 0 {
		kind = ahpwire.PartReasoning
	}
	g.parts = append(g.parts, id)
	if _, ok := g.kinds[id]; !ok {
		g.kinds[id] = kind
	}
	content := ""
	if g.r.IntN(3) == 0 {
		content = g.text()
	}
	g.emit(&ahpwire.ChatResponsePart{TurnID: g.turnID(), Part: ahpwire.ResponsePart{Kind: kind, ID: id, Content: content}})
}

func (g *streamGen) otherPart() {
	var p ahpwire.ResponsePart
	switch g.r.IntN(5) {
	case 0:
		p = ahpwire.ResponsePart{Kind: ahpwire.PartSystemNotification, Notification: g.rich()}
		if p.Notification == nil {
			p.Notification = ahpwire.PlainPtr("note")
		}
	case 1:
		p = ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ahpwire.ContentRef{URI: "file:///x", SizeHint: ahpwire.Ptr(int64(3))}}
	case 2:
		p = ahpwire.ResponsePart{Kind: "attribution", Raw: []byte(`{"kind":"attribution","id":"att1","targetPartId":"p1"}`)}
	case 3:
		e := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "x", Message: "ignored"}, false)
		p = e // error parts via responsePart are ignored
	default:
		tc := &ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: "whole-tc", ToolName: "read", DisplayName: "Read",
			InvocationMessage: ahpwire.PlainPtr("Read"), Success: ahpwire.Ptr(true), PastTenseMessage: ahpwire.PlainPtr("Read it")}
		p = ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: tc}
	}
	g.emit(&ahpwire.ChatResponsePart{TurnID: g.turnID(), Part: p})
}

func (g *streamGen) contents() []ahpwire.ToolResultContent {
	if g.r.IntN(4) == 0 {
		return nil
	}
	all := []ahpwire.ToolResultContent{
		ahpwire.TextContent(g.text()),
		{Type: ahpwire.ContentTerminal, Resource: "ahp-terminal:/1", Title: "bash", Result: &ahpwire.TerminalCommandResult{ExitCode: ahpwire.Ptr(g.r.IntN(3)), Preview: g.text()}},
		{Type: ahpwire.ContentFileEdit, After: &ahpwire.FileEditSide{URI: "file:///a.go", Content: ahpwire.ContentRef{URI: "ahp-content:/a"}}, Diff: &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr(int64(3))}},
		{Type: ahpwire.ContentResource, URI: "file:///r"},
		{Type: ahpwire.ContentSubagent, Resource: "ahp-chat:/sub", Title: "worker"},
	}
	n := g.r.IntN(3)
	out := []ahpwire.ToolResultContent{}
	for i := 0; i < n; i++ {
		out = append(out, all[g.r.IntN(len(all))])
	}
	return out
}

func (g *streamGen) toolStep() {
	id, turn := g.pick(g.tools), g.turnID()
	opts := []ahpwire.ConfirmationOption{{ID: "once", Label: "Allow once", Kind: "approve"}, {ID: "no", Label: "Deny", Kind: "deny", Group: ahpwire.Ptr(1)}}
	switch g.r.IntN(11) {
	case 0:
		a := &ahpwire.ChatToolCallDelta{TurnID: turn, ToolCallID: id, Content: g.text(), InvocationMessage: g.rich()}
		g.emit(a)
	case 1, 2:
		a := &ahpwire.ChatToolCallReady{TurnID: turn, ToolCallID: id, InvocationMessage: ahpwire.Plain("Run " + g.text())}
		if g.r.IntN(2) == 0 {
			a.ToolInput = ahpwire.InlineInput(`{"cmd":"ls"}`)
		}
		if g.r.IntN(3) == 0 {
			a.Confirmed = ahpwire.ConfirmedNotNeeded
		} else {
			a.ConfirmationTitle = g.rich()
			if g.r.IntN(2) == 0 {
				a.Options = opts
			}
			if g.r.IntN(3) == 0 {
				a.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Safety: ahpwire.Ptr(0.25)}
			}
			if g.r.IntN(4) == 0 {
				a.Edits = &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{{After: &ahpwire.FileEditSide{URI: "file:///b"}}}}
				a.Editable = ahpwire.Ptr(true)
			}
		}
		g.emit(a)
	case 3, 4:
		a := &ahpwire.ChatToolCallConfirmed{TurnID: turn, ToolCallID: id, Approved: g.r.IntN(3) != 0}
		if a.Approved {
			a.Confirmed = ahpwire.ConfirmedUserAction
			if g.r.IntN(3) == 0 {
				a.EditedToolInput = ahpwire.Ptr(`{"cmd":"pwd"}`)
			}
		} else {
			a.Reason = []string{ahpwire.CancelDenied, ahpwire.CancelSkipped}[g.r.IntN(2)]
			a.ReasonMessage = g.rich()
			if g.r.IntN(2) == 0 {
				m := ahpwire.UserMessage("try ls -a")
				a.UserSuggestion = &m
			}
		}
		if g.r.IntN(2) == 0 {
			a.SelectedOptionID = []string{"once", "no", "nope"}[g.r.IntN(3)]
		}
		g.emit(a)
	case 5, 6:
		res := ahpwire.ToolCallResult{Success: g.r.IntN(4) != 0, PastTenseMessage: ahpwire.Plain("Ran"), Content: g.contents()}
		if !res.Success {
			res.Error = &ahpwire.ToolError{Message: "exit 1", Code: "E1"}
		}
		if g.r.IntN(5) == 0 {
			res.StructuredContent = []byte(`{"n":1}`)
		}
		g.emit(&ahpwire.ChatToolCallComplete{TurnID: turn, ToolCallID: id, Result: res, RequiresResultConfirmation: g.r.IntN(3) == 0})
	case 7:
		g.emit(&ahpwire.ChatToolCallResultConfirmed{TurnID: turn, ToolCallID: id, Approved: g.r.IntN(2) == 0})
	case 8:
		c := g.contents()
		if c == nil {
			c = []ahpwire.ToolResultContent{}
		}
		g.emit(&ahpwire.ChatToolCallContentChanged{TurnID: turn, ToolCallID: id, Content: c})
	case 9:
		g.emit(&ahpwire.ChatToolCallAuthRequired{TurnID: turn, ToolCallID: id, Auth: ahpwire.McpAuthRequirement{
			Reason: "required", Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://mcp.example"}}})
	default:
		g.emit(&ahpwire.ChatToolCallAuthResolved{TurnID: turn, ToolCallID: id, Meta: ahpwire.Meta{"k": []byte(`"v"`)}})
	}
}

func (g *streamGen) inputStep() {
	switch g.r.IntN(4) {
	case 0, 1:
		id := fmt.Sprintf("in%d", g.r.IntN(3))
		g.inputs = append(g.inputs, id)
		req := ahpwire.ChatInputRequest{ID: id, Message: g.text(), Questions: []ahpwire.ChatInputQuestion{
			{Kind: ahpwire.QuestionSingleSelect, ID: "q1", Message: "Which?", Required: ahpwire.Ptr(true),
				Options: []ahpwire.ChatInputOption{{ID: "a", Label: "A"}, {ID: "b", Label: "B", Recommended: ahpwire.Ptr(true)}}},
			{Kind: ahpwire.QuestionText, ID: "q2", Message: "Why?"},
		}}
		if g.r.IntN(4) == 0 {
			req.Answers = map[string]ahpwire.ChatInputAnswer{"q2": {State: ahpwire.AnswerDraft, Value: ahpwire.Ptr(ahpwire.TextAnswer("pre"))}}
		}
		g.emit(&ahpwire.ChatInputRequested{Request: req})
	case 2:
		a := &ahpwire.ChatInputAnswerChanged{RequestID: g.pick(g.inputs), QuestionID: []string{"q1", "q2"}[g.r.IntN(2)]}
		if g.r.IntN(4) != 0 {
			a.Answer = &ahpwire.ChatInputAnswer{State: ahpwire.AnswerDraft, Value: ahpwire.Ptr(ahpwire.SelectedAnswer("a"))}
		}
		g.emit(a)
	default:
		a := &ahpwire.ChatInputCompleted{RequestID: g.pick(g.inputs), Response: []string{"accept", "decline", "cancel"}[g.r.IntN(3)]}
		if g.r.IntN(2) == 0 {
			a.Answers = map[string]ahpwire.ChatInputAnswer{"q1": {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.SelectedAnswer("b"))}}
		}
		g.emit(a)
	}
}

// wireRoundTrip re-decodes every envelope from its JSON so that tests see
// exactly what a client decodes off the wire.
func wireRoundTrip(t testing.TB, envs []ahpwire.ActionEnvelope) []ahpwire.ActionEnvelope {
	t.Helper()
	out := make([]ahpwire.ActionEnvelope, len(envs))
	for i, e := range envs {
		b, err := e.MarshalJSON()
		if err != nil {
			t.Fatalf("marshal envelope %d: %v", i, err)
		}
		if err := out[i].UnmarshalJSON(b); err != nil {
			t.Fatalf("decode envelope %d (%s): %v", i, b, err)
		}
	}
	return out
}

func ahpwireChat() ahpwire.ChatState {
	return ahpwire.ChatState{Resource: genChat, Turns: []ahpwire.Turn{}}
}
