package ahphost

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// idleAgent never emits anything; it keeps fixture runs free of agent output.
type idleAgent struct{}

func (idleAgent) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "idle"}}
}

func (idleAgent) Run(ctx context.Context, _ Turn) error {
	<-ctx.Done()
	return ctx.Err()
}

// clientOnly are the chat actions only a client dispatches; the fixture
// runner sends them through the host's dispatch path (validation, echo,
// side effects). Every other action goes through the host's server path
// (reduce, broadcast, follow-ups), as the agent's actions do.
var clientOnly = map[string]bool{
	"chat/toolCallConfirmed": true, "chat/toolCallResultConfirmed": true, "chat/turnResume": true,
	"chat/truncated": true, "chat/pendingMessageSet": true, "chat/queuedMessagesReordered": true,
	"chat/draftChanged": true, "chat/isReadChanged": true, "chat/isArchivedChanged": true,
	"chat/inputAnswerChanged": true, "chat/inputCompleted": true, "chat/workingDirectorySet": true,
	"chat/workingDirectoryRemoved": true, "chat/steeringMessageSet": true, "chat/steeringMessageRemoved": true,
}

// hostCannotApply lists fixtures whose expected state the host's chat path
// cannot produce, with the reason (they are reported, not silently skipped).
var hostCannotApply = map[string]string{
	"105-session-input-full-draft-and-complete-flow.json": "0.5-era input model (ChatState.inputRequests removed on completion); " +
		"the host speaks ≥0.9 where input requests are inputRequest parts (ahpstate covers it in Legacy05 mode)",
	"029-toolcallready-ignores-non-streaming-non-running-tool-calls.json": "0.5 treats chat/toolCallReady on a pending-confirmation " +
		"call as a no-op; ≥1.0 (the host) merges it (ahpstate covers it in Legacy05 mode)",
	"046-append-queued-message-when-id-is-new.json": "the chat is idle, so the host consumes the queued message at once " +
		"(server consumption rule: pendingMessageRemoved + turnStarted) instead of keeping it queued",
	"052-steering-and-queued-messages-are-independent.json": "the chat is idle, so the host consumes the queued message at once",
	"048-remove-a-queued-message.json": "the initial chat is idle with queued messages, a state the host never keeps: " +
		"after any chat change it consumes the next queued message as a new turn",
	"050-remove-queued-message-is-no-op-for-unknown-id.json": "the initial chat is idle with a queued message; the host " +
		"rejects the unknown id (validation, echoed with rejectionReason) and consumes the queued message",
	"054-keeps-messages-not-in-order-at-end-in-original-order.json": "the initial chat is idle with queued messages; " +
		"the host consumes the first one after the reorder",
	"056-empty-reorder-preserves-all-messages-in-original-order.json": "the initial chat is idle with queued messages; " +
		"the host consumes the first one after the reorder",
	"040-replace-existing-steering-message.json": "the chat is idle, so the host consumes the steering message at once " +
		"as the next turn (the demo agent does not steer; a steering message left after a turn becomes the next message)",
	"158-toolcallconfirmed-approved-with-editedtoolinput-overrides-original.json": "the tool call is not marked editable, " +
		"so host validation rejects editedToolInput (echoed with rejectionReason) where the bare reducer applies it",
}

func TestHostChatStateFixtures(t *testing.T) {
	ran, listed := 0, 0
	for _, fx := range ahpfixtures.Reducers(t) {
		name := fx.File
		t.Run(name, func(t *testing.T) {
			if fx.Reducer != "chat" {
				t.Fatalf("reducer %q", fx.Reducer)
			}
			got, rejections := runHostFixture(t, fx.Initial, fx.Actions)
			g, w := comparable(t, got), comparable(t, fx.Expected)
			same := reflect.DeepEqual(g, w)
			if reason, ok := hostCannotApply[name]; ok {
				listed++
				if same {
					t.Errorf("listed as not applicable but matches; remove it from hostCannotApply")
				}
				t.Logf("cannot apply: %s", reason)
				return
			}
			ran++
			if !same {
				t.Errorf("%s\nrejections: %v\n got %s\nwant %s", fx.Description, rejections, got, fx.Expected)
			}
		})
	}
	t.Logf("%d fixtures matched through the host path, %d listed as not applicable", ran, listed)
	if ran == 0 {
		t.Fatal("no fixture ran")
	}
}

// runHostFixture loads initial into a chat of a real host and feeds the
// actions through the host's own paths; it returns the final chat state.
func runHostFixture(t *testing.T, initial json.RawMessage, actions []json.RawMessage) ([]byte, []string) {
	t.Helper()
	h, err := New(Options{NoToken: true, Dir: t.TempDir(), Agent: idleAgent{}})
	must(t, err)
	defer h.Close()
	chatURI, err := h.SeedSession("ahp-session:/fx", nil)
	must(t, err)
	st, err := ahpwire.DecodeChatState(initial)
	must(t, err)
	var rejections []string
	h.mu.Lock()
	s := h.st
	ce := s.chats[chatURI]
	resource := st.Resource
	st.Resource = chatURI
	ce.state = st
	for i, rawAction := range actions {
		a, err := ahpwire.DecodeAction(rawAction)
		if err != nil {
			h.mu.Unlock()
			t.Fatalf("action %d: %v", i, err)
		}
		if clientOnly[a.ActionType()] {
			origin := &ahpwire.ActionOrigin{ClientID: "fixture", ClientSeq: uint64(i + 1)}
			if reason := s.dispatchChat(ce, a, nil, origin); reason != "" {
				rejections = append(rejections, a.ActionType()+": "+reason)
			}
		} else {
			s.applyServerChat(ce, a)
		}
	}
	final := ce.state
	h.mu.Unlock()
	final.Resource = resource
	b, err := json.Marshal(final)
	must(t, err)
	return b, rejections
}

// comparable decodes JSON, strips nulls and drops modifiedAt (the host's
// reducer takes modifiedAt from action data, the 0.5-era fixtures from a
// pinned wall clock).
func comparable(t *testing.T, b []byte) any {
	t.Helper()
	v := ahpfixtures.Normalized(t, b)
	if m, ok := v.(map[string]any); ok {
		delete(m, "modifiedAt")
	}
	return v
}
