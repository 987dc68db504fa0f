package ahpstate

import (
	"errors"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestValidateChatAction(t *testing.T) {
	idle := idleChat()
	active := apply(idleChat(), started("t1"))
	pending := withPendingTool(nil, false)
	clientTool := apply(idleChat(), started("t1"),
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "x", DisplayName: "X", Contributor: &ahpwire.ToolCallContributor{Kind: "client", ClientID: "me"}},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: ahpwire.Plain("go"), Confirmed: ahpwire.ConfirmedNotNeeded})
	queued := apply(idleChat(), &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q", Message: ahpwire.UserMessage("x")})
	done := apply(active, &ahpwire.ChatTurnComplete{TurnID: "t1", Duration: ahpwire.Ptr[int64](1)})
	okResult := ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ok")}

	cases := []struct {
		name   string
		s      ahpwire.ChatState
		a      ahpwire.Action
		client string
		reason string // "" = accept; otherwise a substring of the reason
	}{
		{"start idle", idle, started("t1"), "me", ""},
		{"start while active", active, started("t2"), "me", "already in progress"},
		{"start reused id", done, started("t1"), "me", "already used"},
		{"start agent message", idle, &ahpwire.ChatTurnStarted{TurnID: "x", Message: ahpwire.ChatMessage{Text: "x", Origin: ahpwire.MessageOrigin{Kind: "agent"}}}, "me", "user messages"},
		{"start empty", idle, &ahpwire.ChatTurnStarted{TurnID: "x", Message: ahpwire.UserMessage("  ")}, "me", "empty message"},
		{"start bad time", idle, &ahpwire.ChatTurnStarted{TurnID: "x", StartedAt: "yesterday", Message: ahpwire.UserMessage("x")}, "me", "ISO-8601"},
		{"cancel idle", idle, &ahpwire.ChatTurnCancelled{TurnID: "t1"}, "me", "no active turn"},
		{"cancel other turn", active, &ahpwire.ChatTurnCancelled{TurnID: "t0"}, "me", "not the active turn"},
		{"cancel active", active, &ahpwire.ChatTurnCancelled{TurnID: "t1", Duration: ahpwire.Ptr[int64](3)}, "me", ""},
		{"server-only delta", active, &ahpwire.ChatDelta{TurnID: "t1", PartID: "p", Content: "x"}, "me", "server-only"},
		{"session action on chat", active, &ahpwire.SessionTitleChanged{Title: "x"}, "me", "does not belong"},
		{"unknown action", active, &ahpwire.UnknownAction{Type: "chat/future"}, "me", "unknown action type"},
		{"nil action", active, nil, "me", "missing action"},
		{"approve pending", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true, Confirmed: ahpwire.ConfirmedUserAction, SelectedOptionID: "yes"}, "me", ""},
		{"approve without confirmed", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true}, "me", "confirmed"},
		{"approve with deny option", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true, Confirmed: ahpwire.ConfirmedUserAction, SelectedOptionID: "no"}, "me", "deny option"},
		{"unknown option", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false, Reason: ahpwire.CancelDenied, SelectedOptionID: "zz"}, "me", "no option"},
		{"edit not editable", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true, Confirmed: ahpwire.ConfirmedUserAction, EditedToolInput: ahpwire.Ptr("x")}, "me", "not editable"},
		{"deny bad reason", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false, Reason: "result-denied"}, "me", "denied or skipped"},
		{"deny", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false, Reason: ahpwire.CancelDenied}, "me", ""},
		{"confirm unknown tool", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "nope", Approved: false, Reason: ahpwire.CancelDenied}, "me", "unknown tool call"},
		{"confirm wrong turn", pending, &ahpwire.ChatToolCallConfirmed{TurnID: "t9", ToolCallID: "tc", Approved: false, Reason: ahpwire.CancelDenied}, "me", "not the active turn"},
		{"confirm running", clientTool, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false, Reason: ahpwire.CancelDenied}, "me", "not awaiting confirmation"},
		{"result confirm not pending", pending, &ahpwire.ChatToolCallResultConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true}, "me", "not awaiting result"},
		{"complete own client tool", clientTool, &ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: okResult}, "me", ""},
		{"complete other's tool", clientTool, &ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: okResult}, "you", "another client"},
		{"complete server tool", pending, &ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: okResult}, "me", "not executed by a client"},
		{"content own tool", clientTool, &ahpwire.ChatToolCallContentChanged{TurnID: "t1", ToolCallID: "tc"}, "me", ""},
		{"remove queued", queued, &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: "q"}, "me", ""},
		{"remove unknown queued", queued, &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: "z"}, "me", "no queued message"},
		{"set pending bad kind", idle, &ahpwire.ChatPendingMessageSet{Kind: "later", ID: "x", Message: ahpwire.UserMessage("x")}, "me", "unknown pending"},
		{"truncate unknown", done, &ahpwire.ChatTruncated{TurnID: "zz"}, "me", "unknown turn"},
		{"truncate known", done, &ahpwire.ChatTruncated{TurnID: "t1"}, "me", ""},
		{"input unknown request", active, &ahpwire.ChatInputCompleted{RequestID: "r", Response: ahpwire.InputCancel}, "me", "no open input request"},
		{"resume while active", active, &ahpwire.ChatTurnResume{TurnID: "t1"}, "me", "in progress"},
		{"resume completed turn", done, &ahpwire.ChatTurnResume{TurnID: "t1"}, "me", "resumable"},
		{"draft agent", idle, &ahpwire.ChatDraftChanged{Draft: &ahpwire.ChatMessage{Text: "x", Origin: ahpwire.MessageOrigin{Kind: "tool"}}}, "me", "user messages"},
		{"read flag", idle, &ahpwire.ChatIsReadChanged{IsRead: true}, "me", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateChatAction(c.s, c.a, c.client)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			var rej *Rejection
			if !errors.As(err, &rej) {
				t.Fatalf("err %v, want *Rejection containing %q", err, c.reason)
			}
			if !strings.Contains(rej.Reason, c.reason) {
				t.Errorf("reason %q, want it to contain %q", rej.Reason, c.reason)
			}
		})
	}
}

func TestValidateSessionAndRootActions(t *testing.T) {
	s := ahpwire.SessionState{Provider: "demo", Title: "s", Lifecycle: ahpwire.LifecycleReady,
		ActiveClients: []ahpwire.SessionActiveClient{{ClientID: "me"}}}
	cases := []struct {
		name   string
		a      ahpwire.Action
		reason string
	}{
		{"rename", &ahpwire.SessionTitleChanged{Title: "new"}, ""},
		{"rename empty", &ahpwire.SessionTitleChanged{Title: " "}, "empty"},
		{"server-only ready", &ahpwire.SessionReady{}, "server-only"},
		{"default chat change", &ahpwire.SessionDefaultChatChanged{DefaultChat: "ahp-chat:/x"}, "server-only"},
		{"set own client", &ahpwire.SessionActiveClientSet{ActiveClient: ahpwire.SessionActiveClient{ClientID: "me"}}, ""},
		{"set other client", &ahpwire.SessionActiveClientSet{ActiveClient: ahpwire.SessionActiveClient{ClientID: "you"}}, "its own"},
		{"remove own", &ahpwire.SessionActiveClientRemoved{ClientID: "me"}, ""},
		{"config without config", &ahpwire.SessionConfigChanged{}, "no configuration"},
		{"unsupported dispatchable", &ahpwire.UnknownAction{Type: "session/customizationToggled"}, "not supported"},
		{"chat action", &ahpwire.ChatIsReadChanged{}, "does not belong"},
		{"archive", &ahpwire.SessionIsArchivedChanged{IsArchived: true}, ""},
	}
	for _, c := range cases {
		err := ValidateSessionAction(s, c.a, "me")
		if (err == nil) != (c.reason == "") || (err != nil && !strings.Contains(err.Error(), c.reason)) {
			t.Errorf("%s: err %v, want reason %q", c.name, err, c.reason)
		}
	}
	if err := ValidateRootAction(ahpwire.RootState{}, &ahpwire.RootConfigChanged{}, "me"); err == nil {
		t.Error("root config change without config accepted")
	}
	if err := ValidateRootAction(ahpwire.RootState{Config: &ahpwire.ConfigState{}}, &ahpwire.RootConfigChanged{}, "me"); err != nil {
		t.Errorf("root config change rejected: %v", err)
	}
	if err := ValidateRootAction(ahpwire.RootState{}, &ahpwire.RootAgentsChanged{}, "me"); err == nil {
		t.Error("root/agentsChanged from a client accepted")
	}
}

// TestPendingListsCapped: the steering and queued lists stop growing at
// their caps (each change copies the list: 32,000 sets cost 32 s), while
// replacing or removing an entry still works.
func TestPendingListsCapped(t *testing.T) {
	s := apply(idleChat(), started("t1"))
	for i := 0; i < MaxSteeringMessages; i++ {
		a := &ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: "s" + strings.Repeat("x", i), Message: ahpwire.UserMessage("x")}}
		if err := ValidateChatAction(s, a, "me"); err != nil {
			t.Fatalf("steering %d: %v", i, err)
		}
		s = apply(s, a)
	}
	over := &ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: "over", Message: ahpwire.UserMessage("x")}}
	if err := ValidateChatAction(s, over, "me"); err == nil || !strings.Contains(err.Error(), "steering messages") {
		t.Fatalf("steering over the cap: %v", err)
	}
	same := &ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: "s", Message: ahpwire.UserMessage("y")}}
	if err := ValidateChatAction(s, same, "me"); err != nil {
		t.Fatalf("replacing a steering message at the cap: %v", err)
	}
	for i := 0; i < MaxQueuedMessages; i++ {
		s = apply(s, &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q" + strings.Repeat("x", i), Message: ahpwire.UserMessage("x")})
	}
	q := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "over", Message: ahpwire.UserMessage("x")}
	if err := ValidateChatAction(s, q, "me"); err == nil || !strings.Contains(err.Error(), "queues") {
		t.Fatalf("queued over the cap: %v", err)
	}
}
