package reducer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

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
func activeChat(t *testing.T) chat {
	t.Helper()
	cs, err := ahpwire.DecodeChatState([]byte(`{"resource":"ahp-chat:/c1","title":"x","status":8,"modifiedAt":"2026-10-05T10:00:00.000Z",
	 "turns":[{"id":"t1","message":{"text":"first","origin":{"kind":"user"}},"responseParts":[{"kind":"markdown","id":"m","content":"done"}],"state":"complete","duration":50}],
	 "activeTurn":{"id":"t2","startedAt":"2026-10-05T10:01:00.000Z","message":{"text":"second","origin":{"kind":"user"}},"responseParts":[
	   {"kind":"markdown","id":"p1","content":"Hel"},{"kind":"reasoning","id":"r1","content":"hmm"},
	   {"kind":"toolCall","toolCall":{"status":"streaming","toolCallId":"tc1","toolName":"bash","displayName":"Run","partialInput":"{\"c"}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	return projected(cs)
}

// TestDeriveCoversEveryChatAction: every chat action of PROTOCOL.md Part B
// §6.5 yields the lifecycle actions that carry the transcript to AHP's new
// state — none when AHP ignores the action (wrong turn, transition not
// allowed, unknown id) or the chat view does not show what it changes —
// and the result always equals the projection of AHP's new state.
func TestDeriveCoversEveryChatAction(t *testing.T) {
	c := activeChat(t)
	tests := []struct{ action, want string }{
		{`{"type":"chat/turnStarted","turnId":"t3","startedAt":"2026-10-05T10:02:00.000Z","message":{"text":"hi","origin":{"kind":"user"}}}`, "Truncate,UserMessage,MessageStart"},
		{`{"type":"chat/responsePart","turnId":"t2","part":{"kind":"markdown","id":"p2","content":""}}`, "BlockStart"},
		{`{"type":"chat/responsePart","turnId":"t2","part":{"kind":"error","error":{"errorType":"x","message":"y"}}}`, ""},
		{`{"type":"chat/responsePart","turnId":"t1","part":{"kind":"markdown","id":"p2","content":""}}`, ""},
		{`{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`, "BlockDelta"},
		{`{"type":"chat/delta","turnId":"t2","partId":"r1","content":"lo"}`, ""},
		{`{"type":"chat/reasoning","turnId":"t2","partId":"r1","content":"..."}`, "BlockDelta"},
		{`{"type":"chat/usage","turnId":"t2","usage":{"inputTokens":3}}`, "UsageChanged"},
		{`{"type":"chat/turnComplete","turnId":"t2","duration":10}`, "BlockUpdate,BlockEnd,BlockEnd,MessageEnd"},
		{`{"type":"chat/turnCancelled","turnId":"t2","duration":10}`, "BlockUpdate,BlockEnd,BlockEnd,MessageEnd"},
		{`{"type":"chat/error","turnId":"t2","duration":10,"part":{"kind":"error","error":{"errorType":"x","message":"y"},"resumable":true}}`, "BlockUpdate,BlockStart,BlockEnd,BlockEnd,MessageEnd"},
		{`{"type":"chat/error","turnId":"t2","error":{"errorType":"x","message":"old shape"}}`, "BlockUpdate,Error,BlockEnd,BlockEnd,MessageEnd"}, // 0.5 shape: Turn.error,
		{`{"type":"chat/turnComplete","turnId":"t1","duration":10}`, ""},
		{`{"type":"chat/turnResume","turnId":"t1"}`, ""},
		{`{"type":"chat/truncated","turnId":"t1"}`, "Truncate"},
		{`{"type":"chat/truncated","turnId":"t9"}`, ""},
		{`{"type":"chat/truncated"}`, "Truncate"},
		{`{"type":"chat/turnsLoaded","turns":[]}`, ""},
		{`{"type":"chat/turnsLoaded","turns":[{"id":"t0","message":{"text":"zero","origin":{"kind":"user"}},"responseParts":[],"state":"complete"},
		  {"id":"t1","message":{"text":"dup","origin":{"kind":"user"}},"responseParts":[],"state":"complete"}]}`, "HistoryLoaded"},
		{`{"type":"chat/activityChanged","activity":"reading"}`, "ActivityChanged"},
		{`{"type":"chat/toolCallStart","turnId":"t2","toolCallId":"tc2","toolName":"a","displayName":"A"}`, "BlockStart"},
		{`{"type":"chat/toolCallDelta","turnId":"t2","toolCallId":"tc1","content":"x"}`, "BlockUpdate"},
		{`{"type":"chat/toolCallReady","turnId":"t2","toolCallId":"tc1","invocationMessage":"Run"}`, "BlockUpdate"},
		{`{"type":"chat/toolCallConfirmed","turnId":"t2","toolCallId":"tc1","approved":true,"confirmed":"user-action"}`, ""},
		{`{"type":"chat/toolCallComplete","turnId":"t2","toolCallId":"tc1","result":{"success":true,"pastTenseMessage":"Ran"}}`, ""},
		{`{"type":"chat/toolCallResultConfirmed","turnId":"t2","toolCallId":"tc1","approved":true}`, ""},
		{`{"type":"chat/toolCallContentChanged","turnId":"t2","toolCallId":"tc1","content":[]}`, ""},
		{`{"type":"chat/toolCallAuthRequired","turnId":"t2","toolCallId":"tc1","auth":{"reason":"required","resource":{"resource":"https://x"}}}`, ""},
		{`{"type":"chat/toolCallAuthResolved","turnId":"t2","toolCallId":"tc1"}`, ""},
		{`{"type":"chat/inputRequested","request":{"id":"in1","message":"?"}}`, "BlockStart"},
		{`{"type":"chat/inputAnswerChanged","requestId":"in1","questionId":"q"}`, ""},
		{`{"type":"chat/inputCompleted","requestId":"in1","response":"decline"}`, ""},
		{`{"type":"chat/pendingMessageSet","kind":"queued","id":"q1","message":{"text":"later","origin":{"kind":"user"}}}`, "PendingChanged"},
		{`{"type":"chat/pendingMessageRemoved","kind":"queued","id":"q1"}`, ""},
		{`{"type":"chat/queuedMessagesReordered","order":["q1"]}`, ""},
		{`{"type":"chat/steeringMessageSet","steeringMessage":{"id":"s1","message":{"text":"steer","origin":{"kind":"user"}}}}`, "PendingChanged"},
		{`{"type":"chat/steeringMessageRemoved","id":"s1"}`, ""},
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
		cs, s, acts := Apply(c.ahp, c.view, chatEnv(t, tc.action))
		if got := kinds(acts); got != tc.want {
			t.Errorf("%s\n  got  [%s]\n  want [%s]", tc.action, got, tc.want)
		}
		if g, w := canonState(s), canonState(Project(cs)); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: derived state differs from the projection\n got %s\nwant %s", tc.action, dump(g), dump(w))
		}
	}
}

func TestApplyEnvelopeRules(t *testing.T) {
	c := activeChat(t)
	delta := `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`
	for name, e := range map[string]ahpwire.ActionEnvelope{
		"rejected":           env(t, `{"channel":"ahp-chat:/c1","serverSeq":1,"rejectionReason":"no","action":`+delta+`}`),
		"other chat":         env(t, `{"channel":"ahp-chat:/other","serverSeq":1,"action":`+delta+`}`),
		"no action":          {},
		"other chat removed": env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/chatRemoved","chat":"ahp-chat:/c9"}}`),
	} {
		cs, s, acts := Apply(c.ahp, c.view, e)
		if acts != nil || !reflect.DeepEqual(cs, c.ahp) || !reflect.DeepEqual(s, c.view) {
			t.Errorf("%s: applied (%s)", name, kinds(acts))
		}
	}
	failed := env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/creationFailed","error":{"errorType":"e","message":"m"}}}`)
	_, end, acts := Apply(c.ahp, c.view, failed)
	if kinds(acts) != "SessionEnd" || !end.Ended || !end.Failed || end.LastError.Message != "m" || end.Current != nil {
		t.Fatalf("session failure: %s %+v", kinds(acts), end)
	}
	removed := env(t, `{"channel":"ahp-session:/s","serverSeq":1,"action":{"type":"session/chatRemoved","chat":"ahp-chat:/c1"}}`)
	if _, end, acts := Apply(c.ahp, c.view, removed); kinds(acts) != "SessionEnd" || !end.Ended || end.Failed {
		t.Fatalf("chat removed: %s", kinds(acts))
	}
}

func TestDeriveTurnSemantics(t *testing.T) {
	c := activeChat(t)
	apply := func(c chat, action string) chat { return applyOurs(c, chatEnv(t, action)) }

	// A delta continues the projected block, in the part's own buffer.
	c2 := apply(c, `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`)
	b := mustBlock(t, c2.view.Current, "p1")
	part := c2.ahp.ActiveTurn.ResponseParts.At(0).Content
	if b.Text() != "Hello" || unsafe.StringData(b.Text()) != unsafe.StringData(part) {
		t.Fatal("delta after projection did not continue in the part's buffer")
	}
	// Wrong turn: AHP ignores it, so nothing is derived.
	if c3 := apply(c2, `{"type":"chat/delta","turnId":"t1","partId":"p1","content":"X"}`); !reflect.DeepEqual(c3.view, c2.view) {
		t.Fatal("delta for a finished turn applied")
	}
	// Turn end: AHP skips the streaming tool call; the transcript shows it.
	done := apply(c2, `{"type":"chat/turnComplete","turnId":"t2","duration":1500}`)
	m := done.view.Messages[len(done.view.Messages)-1]
	if done.view.Current != nil || m.Status != StatusComplete || m.Duration.Milliseconds() != 1500 || done.view.Stats.ForcedBlockEnds != 0 {
		t.Fatalf("turn end: %+v stats %+v", m, done.view.Stats)
	}
	if tc := m.Blocks.At(2).Tool; tc.Status != ahpwire.ToolCancelled || tc.Reason != ahpwire.CancelSkipped ||
		tc != done.ahp.Turns[1].ResponseParts[2].ToolCall {
		t.Fatalf("tool: %+v (must be AHP's own state)", tc)
	}
	// chat/error records an error block and the error status; a resumable
	// error may be resumed.
	errd := apply(c2, `{"type":"chat/error","turnId":"t2","duration":5,"part":{"kind":"error","error":{"errorType":"x","message":"boom"},"resumable":true}}`)
	em := errd.view.Messages[len(errd.view.Messages)-1]
	if em.Status != StatusError || em.Blocks.At(3).Kind != KindError || !em.Blocks.At(3).Err.Resumable {
		t.Fatalf("error turn: %+v", em)
	}
	resumed := apply(errd, `{"type":"chat/turnResume","turnId":"t2"}`)
	if resumed.view.Current == nil || resumed.view.Current.ID != "t2" || !mustBlock(t, resumed.view.Current, "p1").Open {
		t.Fatal("resume did not reopen the turn")
	}
	// A turn that did not end in a resumable error is not resumed (AHP's
	// rule, applied by ahpstate).
	if x := apply(done, `{"type":"chat/turnResume","turnId":"t2"}`); x.view.Current != nil {
		t.Fatal("completed turn resumed")
	}
	// A new turn while one is active drops the active one, as AHP does.
	next := apply(c2, `{"type":"chat/turnStarted","turnId":"t3","message":{"text":"again","origin":{"kind":"user"}}}`)
	if got := ids(next.view.Messages); !reflect.DeepEqual(got, []string{"t1/user", "t1", "t3/user"}) || next.view.Current.ID != "t3" {
		t.Fatalf("replace active: %v", got)
	}
	// turnStarted consuming a queued message removes it.
	q := apply(done, `{"type":"chat/pendingMessageSet","kind":"queued","id":"q1","message":{"text":"later","origin":{"kind":"user"}}}`)
	if len(q.view.Queued) != 1 {
		t.Fatalf("queued: %+v", q.view.Queued)
	}
	q = apply(q, `{"type":"chat/turnStarted","turnId":"t4","queuedMessageId":"q1","message":{"text":"later","origin":{"kind":"user"}}}`)
	if len(q.view.Queued) != 0 || q.view.Current.ID != "t4" {
		t.Fatalf("queued: %+v", q.view.Queued)
	}
	// History: only turns AHP did not have yet are prepended.
	h := apply(done, `{"type":"chat/turnsLoaded","turns":[{"id":"t0","message":{"text":"zero","origin":{"kind":"user"}},"responseParts":[],"state":"complete"},
	  {"id":"t1","message":{"text":"dup","origin":{"kind":"user"}},"responseParts":[],"state":"complete"}]}`)
	if got := ids(h.view.Messages); !reflect.DeepEqual(got, []string{"t0/user", "t0", "t1/user", "t1", "t2/user", "t2"}) {
		t.Fatalf("history: %v", got)
	}
}

// TestApplyDeltaCostDoesNotGrow: through the whole client path (ahpstate,
// Derive, Reduce) a delta into a 1 MiB part allocates no more bytes than
// one into a small part — neither AHP's state nor the transcript copies the
// text — and the block's text is the part's text, not a second copy.
func TestApplyDeltaCostDoesNotGrow(t *testing.T) {
	d := chatEnv(t, `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"0123456789abcdef"}`)
	small := activeChat(t)
	big := small
	for len(big.view.Current.Blocks.At(0).Text()) < 1<<20 {
		big = applyOurs(big, d)
	}
	perDelta := func(c chat, n int) float64 {
		return testing.AllocsPerRun(n, func() { c = applyOurs(c, d) })
	}
	bytesPerDelta := func(c chat, n int) float64 {
		return bytesPerRun(n, func() { c = applyOurs(c, d) })
	}
	sa, ba := perDelta(small, 2000), perDelta(big, 2000)
	sb, bb := bytesPerDelta(small, 64<<10/16), bytesPerDelta(big, 1<<20/16)
	t.Logf("per delta: small part %.1f allocs %.0f B, 1 MiB part %.1f allocs %.0f B", sa, sb, ba, bb)
	if ba > sa {
		t.Errorf("allocs per delta grow with the part: %.1f → %.1f", sa, ba)
	}
	if limit := 2*sb + 256; bb > limit {
		t.Errorf("bytes per delta grow with the part: %.0f → %.0f (limit %.0f)", sb, bb, limit)
	}
	blk, part := big.view.Current.Blocks.At(0).Text(), big.ahp.ActiveTurn.ResponseParts.At(0).Content
	if unsafe.StringData(blk) != unsafe.StringData(part) || len(blk) != len(part) {
		t.Fatal("the block keeps a second copy of the part's text")
	}
}

// TestApplyToolDeltaCostDoesNotGrow: streamed tool input (chat/toolCallDelta)
// costs no more bytes per delta into a 1 MiB input than into a small one.
func TestApplyToolDeltaCostDoesNotGrow(t *testing.T) {
	d := chatEnv(t, `{"type":"chat/toolCallDelta","turnId":"t2","toolCallId":"tc1","content":"0123456789abcdef"}`)
	bytesPerDelta := func(c chat, n int) float64 {
		return bytesPerRun(n, func() { c = applyOurs(c, d) })
	}
	small := activeChat(t)
	big := small
	for i := 0; i < 1<<20/16; i++ {
		big = applyOurs(big, d)
	}
	if n := len(*big.view.Current.Blocks.At(2).Tool.PartialInput); n < 1<<20 {
		t.Fatalf("partial input %d bytes", n)
	}
	sb, bb := bytesPerDelta(small, 64<<10/16), bytesPerDelta(big, 1<<20/16)
	t.Logf("bytes per tool delta: small %.0f, 1 MiB input %.0f", sb, bb)
	if limit := 2*sb + 256; bb > limit {
		t.Errorf("bytes per tool delta grow with the input: %.0f → %.0f (limit %.0f)", sb, bb, limit)
	}
}

func TestSessionEnded(t *testing.T) {
	const chat = "ahp-chat:/s1/c1"
	ready := ahpwire.SessionState{Lifecycle: ahpwire.LifecycleReady, Chats: []ahpwire.ChatSummary{{Resource: chat}}}
	if _, ended := SessionEnded(ready, chat); ended {
		t.Fatal("a ready session that lists the chat ended it")
	}
	other := ready
	other.Chats = []ahpwire.ChatSummary{{Resource: "ahp-chat:/s1/c2"}}
	if end, ended := SessionEnded(other, chat); !ended || end.Failed || end.Reason != "chat removed" {
		t.Fatalf("a session without the chat: %+v %v", end, ended)
	}
	if _, ended := SessionEnded(ahpwire.SessionState{Lifecycle: ahpwire.LifecycleReady, DefaultChat: chat}, chat); ended {
		t.Fatal("a session that lists no chats (another dialect) ended its default chat")
	}
	failed := ready
	failed.Lifecycle = ahpwire.LifecycleCreationFailed
	failed.CreationError = &ahpwire.ErrorInfo{ErrorType: "agent", Message: "agent exited"}
	end, ended := SessionEnded(failed, chat)
	if !ended || !end.Failed || end.Error == nil || end.Error.Message != "agent exited" {
		t.Fatalf("a failed session: %+v %v", end, ended)
	}
	s := Reduce(State{}, end)
	if !s.Ended || !s.Failed || s.EndReason != "session failed" {
		t.Fatalf("SESSION_END not reduced: %+v", s)
	}
}
