package ahpwire

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// sampleActions has one populated value per typed action.
func sampleActions() []Action {
	msg := UserMessage("hi")
	res := ToolCallResult{Success: true, PastTenseMessage: Plain("ran"), Content: []ToolResultContent{TextContent("out")}}
	return []Action{
		&ChatTurnStarted{TurnID: "t1", StartedAt: "2026-01-01T00:00:00.000Z", Message: msg, QueuedMessageID: "q1"},
		&ChatDelta{TurnID: "t1", PartID: "p1", Content: "x"},
		&ChatResponsePart{TurnID: "t1", Part: MarkdownPart("p1", "")},
		&ChatReasoning{TurnID: "t1", PartID: "r1", Content: "think"},
		&ChatUsage{TurnID: "t1", Usage: UsageInfo{InputTokens: Ptr[int64](3), Model: "m"}},
		&ChatTurnComplete{TurnID: "t1", Duration: Ptr[int64](12)},
		&ChatTurnCancelled{TurnID: "t1", Duration: Ptr[int64](0)},
		&ChatError{TurnID: "t1", Duration: Ptr[int64](5), Part: Ptr(ErrorPart(ErrorInfo{ErrorType: "x", Message: "boom"}, true))},
		&ChatTurnResume{TurnID: "t1"},
		&ChatTruncated{TurnID: "t0"},
		&ChatTurnsLoaded{Turns: []Turn{{ID: "t0", Message: msg, ResponseParts: []ResponsePart{}, State: TurnComplete}}, TurnsNextCursor: "c"},
		&ChatActivityChanged{Activity: "thinking"},
		&ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "bash", DisplayName: "Bash", Contributor: &ToolCallContributor{Kind: "client", ClientID: "c1"}},
		&ChatToolCallDelta{TurnID: "t1", ToolCallID: "tc", Content: "{", InvocationMessage: PlainPtr("prep")},
		&ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: MarkdownText("run `ls`"), ToolInput: InlineInput("ls"),
			Options: []ConfirmationOption{{ID: "a", Label: "Allow", Kind: "approve", Group: Ptr(1)}}},
		&ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true, Confirmed: ConfirmedUserAction, EditedToolInput: Ptr("ls -l")},
		&ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: res, RequiresResultConfirmation: true},
		&ChatToolCallResultConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false},
		&ChatToolCallContentChanged{TurnID: "t1", ToolCallID: "tc", Content: []ToolResultContent{{Type: ContentTerminal, Resource: "ahp-terminal:/1", Title: "sh"}}},
		&ChatToolCallAuthRequired{TurnID: "t1", ToolCallID: "tc", Auth: McpAuthRequirement{Reason: "required", Resource: ProtectedResourceMetadata{Resource: "https://x"}}},
		&ChatToolCallAuthResolved{TurnID: "t1", ToolCallID: "tc"},
		&ChatInputRequested{Request: ChatInputRequest{ID: "r", Questions: []ChatInputQuestion{{Kind: QuestionBoolean, ID: "q", Message: "ok?"}}}},
		&ChatInputAnswerChanged{RequestID: "r", QuestionID: "q", Answer: &ChatInputAnswer{State: AnswerDraft, Value: Ptr(BoolAnswer(true))}},
		&ChatInputCompleted{RequestID: "r", Response: InputAccept, Answers: map[string]ChatInputAnswer{"q": {State: AnswerSubmitted, Value: Ptr(TextAnswer("y"))}}},
		&ChatPendingMessageSet{Kind: PendingQueued, ID: "q1", Message: msg},
		&ChatPendingMessageRemoved{Kind: PendingSteering, ID: "s1"},
		&ChatQueuedMessagesReordered{Order: []string{"b", "a"}},
		&ChatSteeringMessageSet{SteeringMessage: PendingMessage{ID: "s", Message: msg}},
		&ChatSteeringMessageRemoved{ID: "s"},
		&ChatDraftChanged{Draft: &msg},
		&ChatIsReadChanged{IsRead: true},
		&ChatIsArchivedChanged{IsArchived: true},
		&ChatWorkingDirectorySet{Directory: "file:///a"},
		&ChatWorkingDirectoryRemoved{Directory: "file:///a"},
		&ChatBackgroundWorkSet{Work: BackgroundWork{Kind: "shell", ID: "b", Label: "l", StartedAt: "x", Command: "sleep"}},
		&ChatBackgroundWorkRemoved{ID: "b"},
		&ChatMovableChanged{Movable: true},
		&ChatChangesetsChanged{Changesets: []Changeset{{Label: "l", URITemplate: "u"}}},
		&ChatCanvasesChanged{Canvases: json.RawMessage(`[{"id":"c"}]`)},
		&SessionReady{},
		&SessionCreationFailed{Error: ErrorInfo{ErrorType: "e", Message: "m"}},
		&SessionChatAdded{Summary: ChatSummary{Resource: "ahp-chat:/c", Title: "t", Status: StatusIdle, ModifiedAt: "2026-01-01T00:00:00Z"}},
		&SessionChatRemoved{Chat: "ahp-chat:/c"},
		&SessionChatUpdated{Chat: "ahp-chat:/c", Changes: PartialChatSummary{Title: Ptr("new")}},
		&SessionDefaultChatChanged{DefaultChat: "ahp-chat:/c"},
		&SessionTitleChanged{Title: "T"},
		&SessionActivityChanged{Activity: "a"},
		&SessionIsReadChanged{IsRead: true},
		&SessionIsArchivedChanged{IsArchived: false},
		&SessionChangesetsChanged{Changesets: []Changeset{{Label: "l", URITemplate: "u", ChangeKind: "session"}}},
		&SessionServerToolsChanged{Tools: []json.RawMessage{json.RawMessage(`{"name":"x"}`)}},
		&SessionActiveClientSet{ActiveClient: SessionActiveClient{ClientID: "c", Tools: []json.RawMessage{}}},
		&SessionActiveClientRemoved{ClientID: "c"},
		&SessionWorkingDirectorySet{Directory: "file:///a"},
		&SessionWorkingDirectoryRemoved{Directory: "file:///a"},
		&SessionInputNeededSet{Request: SessionInputRequest{ID: "i", Chat: "ahp-chat:/c", Kind: InputNeededChatInput, Request: &ChatInputRequest{ID: "r"}}},
		&SessionInputNeededRemoved{ID: "i"},
		&SessionCustomizationsChanged{Customizations: []json.RawMessage{json.RawMessage(`{"type":"x"}`)}},
		&SessionConfigChanged{Config: map[string]json.RawMessage{"k": json.RawMessage(`1`)}, Replace: true},
		&SessionMetaChanged{Meta: Meta{"k": json.RawMessage(`"v"`)}},
		&SessionWorkingDirectoryReplaced{Directory: "file:///a", Replacement: "file:///b"},
		&SessionCustomizationToggled{ID: "p", Enabled: true},
		&SessionCustomizationUpdated{Customization: json.RawMessage(`{"type":"plugin","id":"p"}`)},
		&SessionCustomizationRemoved{ID: "p"},
		&SessionMCPServerStateChanged{ID: "m", State: json.RawMessage(`{"kind":"ready"}`), Channel: "mcp://m"},
		&SessionMCPServerStartRequested{ID: "m"},
		&SessionMCPServerStopRequested{ID: "m"},
		&RootAgentsChanged{Agents: []AgentInfo{{Provider: "demo", DisplayName: "Demo", Models: []SessionModelInfo{}}}},
		&RootActiveSessionsChanged{ActiveSessions: 2},
		&RootTerminalsChanged{Terminals: []json.RawMessage{json.RawMessage(`{"resource":"t"}`)}},
		&RootConfigChanged{Config: map[string]json.RawMessage{"k": json.RawMessage(`true`)}},
	}
}

func TestEveryActionRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range append(sampleActions(), channelSampleActions()...) {
		b, err := MarshalAction(a)
		if err != nil {
			t.Fatalf("%s: marshal: %v", a.ActionType(), err)
		}
		var head struct{ Type string }
		if err := json.Unmarshal(b, &head); err != nil || head.Type != a.ActionType() {
			t.Fatalf("%s: type discriminator %q in %s (err %v)", a.ActionType(), head.Type, b, err)
		}
		got, err := DecodeAction(b)
		if err != nil {
			t.Fatalf("%s: decode: %v", a.ActionType(), err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("%s: round trip\n got %#v\nwant %#v", a.ActionType(), got, a)
		}
		// json.Marshal on the value (not pointer) must also carry the type.
		b2, err := json.Marshal(reflect.ValueOf(a).Elem().Interface())
		if err != nil || string(b2) != string(b) {
			t.Errorf("%s: value marshal %s differs from %s (err %v)", a.ActionType(), b2, b, err)
		}
		seen[a.ActionType()] = true
	}
	for typ := range actionRegistry {
		if !seen[typ] {
			t.Errorf("registry type %s has no sample", typ)
		}
	}
}

func TestDecodeActionUnknownAndMalformed(t *testing.T) {
	raw := []byte(`{"type":"chat/futureThing","x":{"y":1}}`)
	a, err := DecodeAction(raw)
	if err != nil {
		t.Fatal(err)
	}
	u, ok := a.(*UnknownAction)
	if !ok || u.Type != "chat/futureThing" {
		t.Fatalf("got %#v, want *UnknownAction", a)
	}
	b, _ := MarshalAction(a)
	if string(b) != string(raw) {
		t.Errorf("unknown action re-encoded as %s", b)
	}
	if _, err := DecodeAction([]byte(`{"turnId":"x"}`)); !errors.Is(err, ErrNoActionType) {
		t.Errorf("missing type: err %v, want ErrNoActionType", err)
	}
	if _, err := DecodeAction([]byte(`{"type":"chat/delta","turnId":5}`)); err == nil || !strings.Contains(err.Error(), "chat/delta") {
		t.Errorf("malformed delta: err %v", err)
	}
	if _, err := DecodeAction([]byte(`[1]`)); err == nil {
		t.Error("array accepted as action")
	}
	// Unknown fields are ignored on known actions.
	a, err = DecodeAction([]byte(`{"type":"chat/delta","turnId":"t","partId":"p","content":"c","future":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := a.(*ChatDelta); d.Content != "c" {
		t.Errorf("delta content %q", d.Content)
	}
}

func TestLegacyChatErrorShape(t *testing.T) {
	a, err := DecodeAction([]byte(`{"type":"chat/error","turnId":"t","error":{"errorType":"x","message":"boom"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := a.(*ChatError)
	p := e.ErrorPart()
	if p.Kind != PartError || p.Error == nil || p.Error.Message != "boom" || e.Duration != nil {
		t.Errorf("legacy error part %#v duration %v", p, e.Duration)
	}
	if e.ErrorInfo().Message != "boom" {
		t.Errorf("ErrorInfo() = %#v", e.ErrorInfo())
	}
}

func TestUnknownPartAndToolStatusPreserved(t *testing.T) {
	raw := `{"type":"chat/responsePart","turnId":"t","part":{"kind":"attribution","id":"a","spans":[1,2]}}`
	a, err := DecodeAction([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := MarshalAction(a)
	if !jsonEqual(t, b, []byte(raw)) {
		t.Errorf("unknown part re-encoded as %s", b)
	}
	tc := `{"kind":"toolCall","toolCall":{"status":"paused-future","toolCallId":"x","toolName":"n","displayName":"d","extra":[1]}}`
	var p ResponsePart
	if err := json.Unmarshal([]byte(tc), &p); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(p)
	if !jsonEqual(t, b, []byte(tc)) {
		t.Errorf("unknown tool status re-encoded as %s", b)
	}
	rc := `{"type":"image","data":"AA==","mimeType":"image/png"}`
	var c ToolResultContent
	if err := json.Unmarshal([]byte(rc), &c); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(c)
	if !jsonEqual(t, b, []byte(rc)) {
		t.Errorf("unknown content re-encoded as %s", b)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	return reflect.DeepEqual(ahpfixtures.JSON(t, a), ahpfixtures.JSON(t, b))
}

func TestEnvelopeOriginAbsentStaysAbsent(t *testing.T) {
	e := ActionEnvelope{Channel: "ahp-chat:/c", ServerSeq: 9, Action: &ChatTurnResume{TurnID: "t"}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "origin") || strings.Contains(string(b), "rejectionReason") {
		t.Errorf("absent fields written: %s", b)
	}
	var back ActionEnvelope
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, e) {
		t.Errorf("envelope round trip %#v", back)
	}
	if err := json.Unmarshal([]byte(`{"channel":"x","serverSeq":1}`), &back); err == nil {
		t.Error("envelope without action accepted")
	}
}

func TestDispatchActionParams(t *testing.T) {
	p := DispatchActionParams{Channel: "ahp-chat:/c", ClientSeq: 7, Action: &ChatTurnCancelled{TurnID: "t", Duration: Ptr[int64](0)}}
	m, err := NewNotification(MethodDispatchAction, p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"channel":"ahp-chat:/c","clientSeq":7,"action":{"type":"chat/turnCancelled","turnId":"t","duration":0}}`
	if !jsonEqual(t, m.Params, []byte(want)) {
		t.Errorf("params %s", m.Params)
	}
	var back DispatchActionParams
	if err := m.DecodeParams(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Errorf("dispatch round trip %#v", back)
	}
}

func TestBackgroundWorkUnknownKindKeepsMembers(t *testing.T) {
	in := `{"kind":"futureKind","id":"f","label":"L","status":"running","startedAt":"2026-09-25T00:01:00.000Z","target":"reviewer"}`
	var w BackgroundWork
	if err := json.Unmarshal([]byte(in), &w); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	_ = json.Unmarshal(out, &got)
	_ = json.Unmarshal([]byte(in), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unknown kind round trip\n got %s\nwant %s", out, in)
	}
	var shell BackgroundWork
	if err := json.Unmarshal([]byte(`{"kind":"shell","id":"s","label":"L","startedAt":"x","command":"c","bogus":1}`), &shell); err != nil {
		t.Fatal(err)
	}
	if shell.Extra != nil {
		t.Errorf("known kind kept unmodelled members: %v", shell.Extra)
	}
}
