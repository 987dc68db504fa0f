package reducer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func env(t *testing.T, js string) ahpwire.ActionEnvelope {
	t.Helper()
	var e ahpwire.ActionEnvelope
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatalf("envelope %s: %v", js, err)
	}
	return e
}

func chatEnv(t *testing.T, action string) ahpwire.ActionEnvelope {
	return env(t, `{"channel":"ahp-chat:/c1","serverSeq":5,"action":`+action+`}`)
}

func kinds(as []Action) string {
	var out []string
	for _, a := range as {
		out = append(out, strings.TrimPrefix(fmt.Sprintf("%T", a), "reducer."))
	}
	return strings.Join(out, ",")
}

// activeChat is a projected chat with one finished turn and active turn t2
// holding markdown p1, reasoning r1 and a streaming tool call tc1.
func activeChat(t *testing.T) State {
	t.Helper()
	cs, err := ahpwire.DecodeChatState([]byte(`{"resource":"ahp-chat:/c1","title":"x","status":8,"modifiedAt":"2026-10-05T10:00:00.000Z",
	 "turns":[{"id":"t1","message":{"text":"first","origin":{"kind":"user"}},"responseParts":[{"kind":"markdown","id":"m","content":"done"}],"state":"complete","duration":50}],
	 "activeTurn":{"id":"t2","startedAt":"2026-10-05T10:01:00.000Z","message":{"text":"second","origin":{"kind":"user"}},"responseParts":[
	   {"kind":"markdown","id":"p1","content":"Hel"},{"kind":"reasoning","id":"r1","content":"hmm"},
	   {"kind":"toolCall","toolCall":{"status":"streaming","toolCallId":"tc1","toolName":"bash","displayName":"Run","partialInput":"{\"c"}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	return Project(cs)
}

// TestTranslateCoversEveryChatAction: every chat action of PROTOCOL.md
// Part B §6.5 maps to the listed lifecycle actions (or is deliberately
// ignored because the chat view does not show it).
func TestTranslateCoversEveryChatAction(t *testing.T) {
	s := activeChat(t)
	tests := []struct{ action, want string }{
		{`{"type":"chat/turnStarted","turnId":"t3","startedAt":"2026-10-05T10:02:00.000Z","message":{"text":"hi","origin":{"kind":"user"}}}`, "Truncate,UserMessage,MessageStart"},
		{`{"type":"chat/responsePart","turnId":"t2","part":{"kind":"markdown","id":"p2","content":""}}`, "BlockStart"},
		{`{"type":"chat/responsePart","turnId":"t2","part":{"kind":"error","error":{"errorType":"x","message":"y"}}}`, ""},
		{`{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`, "BlockDelta"},
		{`{"type":"chat/reasoning","turnId":"t2","partId":"r1","content":"..."}`, "BlockDelta"},
		{`{"type":"chat/usage","turnId":"t2","usage":{"inputTokens":3}}`, "UsageChanged"},
		{`{"type":"chat/turnComplete","turnId":"t2","duration":10}`, "BlockEnd,BlockEnd,BlockEnd,MessageEnd"},
		{`{"type":"chat/turnCancelled","turnId":"t2","duration":10}`, "BlockEnd,BlockEnd,BlockEnd,MessageEnd"},
		{`{"type":"chat/error","turnId":"t2","duration":10,"part":{"kind":"error","error":{"errorType":"x","message":"y"},"resumable":true}}`, "BlockEnd,BlockEnd,BlockEnd,Error,MessageEnd"},
		{`{"type":"chat/error","turnId":"t2","error":{"errorType":"x","message":"old shape"}}`, "BlockEnd,BlockEnd,BlockEnd,Error,MessageEnd"},
		{`{"type":"chat/turnComplete","turnId":"t1","duration":10}`, ""},
		{`{"type":"chat/turnResume","turnId":"t1"}`, "MessageResume"},
		{`{"type":"chat/truncated","turnId":"t1"}`, "Truncate"},
		{`{"type":"chat/truncated"}`, "Truncate"},
		{`{"type":"chat/turnsLoaded","turns":[]}`, "HistoryLoaded"},
		{`{"type":"chat/activityChanged","activity":"reading"}`, "ActivityChanged"},
		{`{"type":"chat/toolCallStart","turnId":"t2","toolCallId":"tc2","toolName":"a","displayName":"A"}`, "ToolCallStart"},
		{`{"type":"chat/toolCallDelta","turnId":"t2","toolCallId":"tc1","content":"x"}`, "ToolCallDelta"},
		{`{"type":"chat/toolCallReady","turnId":"t2","toolCallId":"tc1","invocationMessage":"Run"}`, "ToolCallReady"},
		{`{"type":"chat/toolCallConfirmed","turnId":"t2","toolCallId":"tc1","approved":true,"confirmed":"user-action"}`, "ToolCallConfirmed"},
		{`{"type":"chat/toolCallComplete","turnId":"t2","toolCallId":"tc1","result":{"success":true,"pastTenseMessage":"Ran"}}`, "ToolResult"},
		{`{"type":"chat/toolCallResultConfirmed","turnId":"t2","toolCallId":"tc1","approved":true}`, "ToolCallResultConfirmed"},
		{`{"type":"chat/toolCallContentChanged","turnId":"t2","toolCallId":"tc1","content":[]}`, "ToolCallContentChanged"},
		{`{"type":"chat/toolCallAuthRequired","turnId":"t2","toolCallId":"tc1","auth":{"reason":"required","resource":{"resource":"https://x"}}}`, "ToolCallAuthRequired"},
		{`{"type":"chat/toolCallAuthResolved","turnId":"t2","toolCallId":"tc1"}`, "ToolCallAuthResolved"},
		{`{"type":"chat/inputRequested","request":{"id":"in1","message":"?"}}`, "InputRequested"},
		{`{"type":"chat/inputAnswerChanged","requestId":"in1","questionId":"q"}`, "InputAnswered"},
		{`{"type":"chat/inputCompleted","requestId":"in1","response":"decline"}`, "InputCompleted"},
		{`{"type":"chat/pendingMessageSet","kind":"queued","id":"q1","message":{"text":"later","origin":{"kind":"user"}}}`, "PendingMessageSet"},
		{`{"type":"chat/pendingMessageRemoved","kind":"queued","id":"q1"}`, "PendingMessageRemoved"},
		{`{"type":"chat/queuedMessagesReordered","order":["q1"]}`, "QueuedReordered"},
		{`{"type":"chat/steeringMessageSet","steeringMessage":{"id":"s1","message":{"text":"steer","origin":{"kind":"user"}}}}`, "PendingMessageSet"},
		{`{"type":"chat/steeringMessageRemoved","id":"s1"}`, "PendingMessageRemoved"},
		// Not shown in the chat view (composer, catalog flags, side panels):
		{`{"type":"chat/draftChanged"}`, ""},
		{`{"type":"chat/isReadChanged","isRead":true}`, ""},
		{`{"type":"chat/isArchivedChanged","isArchived":true}`, ""},
		{`{"type":"chat/workingDirectorySet","directory":"file:///x"}`, ""},
		{`{"type":"chat/workingDirectoryRemoved","directory":"file:///x"}`, ""},
		{`{"type":"chat/backgroundWorkSet","work":{"kind":"shell","id":"b","label":"l","startedAt":"2026-10-05T10:00:00.000Z"}}`, ""},
		{`{"type":"chat/backgroundWorkRemoved","id":"b"}`, ""},
		{`{"type":"chat/movableChanged","movable":true}`, ""},
		{`{"type":"chat/changesetsChanged"}`, ""},
		{`{"type":"chat/canvasesChanged"}`, ""},
		{`{"type":"chat/somethingNew","x":1}`, ""},
	}
	for _, tc := range tests {
		e := chatEnv(t, tc.action)
		if got := kinds(Translate(e, s)); got != tc.want {
			t.Errorf("%s\n  got  [%s]\n  want [%s]", tc.action, got, tc.want)
		}
		// And the result always reduces.
		_ = ReduceAll(s, Translate(e, s)...)
	}
}

func TestTranslateEnvelopeRules(t *testing.T) {
	s := activeChat(t)
	delta := `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`
	if got := Translate(env(t, `{"channel":"ahp-chat:/c1","serverSeq":1,"rejectionReason":"no","action":`+delta+`}`), s); got != nil {
		t.Fatalf("rejected envelope translated: %s", kinds(got))
	}
	if got := Translate(env(t, `{"channel":"ahp-chat:/other","serverSeq":1,"action":`+delta+`}`), s); got != nil {
		t.Fatalf("other chat's envelope translated: %s", kinds(got))
	}
	if got := Translate(ahpwire.ActionEnvelope{}, s); got != nil {
		t.Fatal("envelope without action translated")
	}
	if got := kinds(Translate(env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/creationFailed","error":{"errorType":"e","message":"m"}}}`), s)); got != "SessionEnd" {
		t.Fatalf("creationFailed: %s", got)
	}
	if got := kinds(Translate(env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/chatRemoved","chat":"ahp-chat:/c1"}}`), s)); got != "SessionEnd" {
		t.Fatalf("chatRemoved: %s", got)
	}
	if got := Translate(env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/chatRemoved","chat":"ahp-chat:/c9"}}`), s); got != nil {
		t.Fatal("removal of another chat ended this one")
	}
	end := ReduceAll(s, Translate(env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/creationFailed","error":{"errorType":"e","message":"m"}}}`), s)...)
	if !end.Ended || !end.Failed || end.LastError.Message != "m" || end.Current != nil {
		t.Fatalf("session failure: %+v", end)
	}
}

func TestTranslateTurnSemantics(t *testing.T) {
	s := activeChat(t)
	apply := func(s State, action string) State { return ReduceAll(s, Translate(chatEnv(t, action), s)...) }

	// A delta continues the projected block.
	s2 := apply(s, `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`)
	if mustBlock(t, s2.Current, "p1").Text() != "Hello" {
		t.Fatal("delta after projection did not continue")
	}
	// Wrong turn: no-op, counted.
	s3 := apply(s2, `{"type":"chat/delta","turnId":"t1","partId":"p1","content":"X"}`)
	if mustBlock(t, s3.Current, "p1").Text() != "Hello" || s3.Stats.IgnoredDeltas != 1 {
		t.Fatal("delta for a finished turn applied")
	}
	// Turn end closes everything and skips the streaming tool.
	done := apply(s2, `{"type":"chat/turnComplete","turnId":"t2","duration":1500}`)
	m := done.Messages[len(done.Messages)-1]
	if done.Current != nil || m.Status != StatusComplete || m.Duration.Milliseconds() != 1500 || done.Stats.ForcedBlockEnds != 0 {
		t.Fatalf("turn end: %+v stats %+v", m, done.Stats)
	}
	if tc := m.Blocks[2].Tool; tc.Status != ToolCancelled || tc.CancelReason != CancelSkipped || tc.InvocationMessage == nil {
		t.Fatalf("tool: %+v", tc)
	}
	// chat/error records an error block and the error status.
	errd := apply(s2, `{"type":"chat/error","turnId":"t2","duration":5,"part":{"kind":"error","error":{"errorType":"x","message":"boom"},"resumable":true}}`)
	em := errd.Messages[len(errd.Messages)-1]
	if em.Status != StatusError || em.Blocks[3].Kind != KindError || !em.Blocks[3].Err.Resumable {
		t.Fatalf("error turn: %+v", em)
	}
	resumed := apply(errd, `{"type":"chat/turnResume","turnId":"t2"}`)
	if resumed.Current == nil || resumed.Current.ID != "t2" {
		t.Fatal("resume did not reopen the turn")
	}
	// A new turn while one is active drops the active one, as AHP does.
	next := apply(s2, `{"type":"chat/turnStarted","turnId":"t3","message":{"text":"again","origin":{"kind":"user"}}}`)
	if got := ids(next.Messages); !reflect.DeepEqual(got, []string{"t1/user", "t1", "t3/user"}) || next.Current.ID != "t3" {
		t.Fatalf("replace active: %v", got)
	}
	// turnStarted consuming a queued message removes it.
	q := apply(done, `{"type":"chat/pendingMessageSet","kind":"queued","id":"q1","message":{"text":"later","origin":{"kind":"user"}}}`)
	q = apply(q, `{"type":"chat/turnStarted","turnId":"t4","queuedMessageId":"q1","message":{"text":"later","origin":{"kind":"user"}}}`)
	if len(q.Queued) != 0 || q.Current.ID != "t4" {
		t.Fatalf("queued: %+v", q.Queued)
	}
}

func TestProject(t *testing.T) {
	s := activeChat(t)
	if s.Chat != "ahp-chat:/c1" || len(s.Messages) != 3 || s.Current == nil {
		t.Fatalf("project: chat=%q messages=%d", s.Chat, len(s.Messages))
	}
	if m := s.Messages[1]; m.Status != StatusComplete || m.Text() != "done" || m.Duration.Milliseconds() != 50 || m.Blocks[0].Open {
		t.Fatalf("finished turn: %+v", m)
	}
	if u := s.Messages[2]; u.Role != RoleUser || u.Text() != "second" || u.TurnID != "t2" {
		t.Fatalf("active turn's user message: %+v", u)
	}
	c := s.Current
	if c.StartedAt.IsZero() || !c.Blocks[0].Open || c.Blocks[1].Kind != KindThinking || c.Blocks[2].Tool.PartialInput() != `{"c` {
		t.Fatalf("current: %+v", c)
	}
	// Reattach keeps the lineage counter growing.
	r := Reattach(Reduce(s, SessionEnd{}), ahpwireChat())
	if r.Seq <= s.Seq || len(r.Messages) != 0 || r.Current != nil || !r.Ended {
		t.Fatalf("reattach: seq %d→%d messages=%d", s.Seq, r.Seq, len(r.Messages))
	}
}
