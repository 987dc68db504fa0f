package acp

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// Attachments go to session/prompt as resource links, or embedded when
// they carry their text and the agent accepts embedded context.
func TestPromptAttachments(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "attach")
	msg := ahpwire.UserMessage("blocks")
	msg.Attachments = []ahpwire.MessageAttachment{
		{Type: "resource", Label: "main.go", URI: fileURI(e.dir + "/main.go")},
		{Type: "embeddedResource", Label: "notes", Data: "some notes", ContentType: "text/plain"},
	}
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: "2026-11-27T00:00:00.000Z", Message: msg}); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "t1")
	if md := markdown(turn); md != "text,link:"+fileURI(e.dir+"/main.go")+",resource" {
		t.Fatalf("prompt blocks %q", md)
	}
}

// Queued messages wait on the host for the turn boundary, then run as the
// next turn.
func TestQueuedMessageAtTurnBoundary(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "queue")
	e.prompt(e.c, chat, "t1", "slow")
	e.eventually("streaming", func() bool {
		st := e.chatState(e.c, chat)
		return st.ActiveTurn != nil && st.ActiveTurn.ResponseParts.Len() > 0
	})
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q1",
		Message: ahpwire.UserMessage("text")}); err != nil {
		t.Fatal(err)
	}
	var second ahpwire.Turn
	e.eventually("the queued turn", func() bool {
		st := e.chatState(e.c, chat)
		if len(st.Turns) == 2 {
			second = st.Turns[1]
			return true
		}
		return false
	})
	if second.Message.Text != "text" || markdown(second) != "Hello from the fake agent." || !strings.Contains(markdown(e.chatState(e.c, chat).Turns[0]), "chunk 99") {
		t.Fatalf("queued turn %q → %q %q %q", second.Message.Text, second.State, markdown(second), errText(second))
	}
}

// An agent that never answers a prompt is cancelled by the user.
func TestCancelHangingPrompt(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "hang")
	e.prompt(e.c, chat, "t1", "hang")
	e.eventually("the turn to run", func() bool {
		st := e.chatState(e.c, chat)
		return st.ActiveTurn != nil
	})
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnCancelled{TurnID: "t1", Duration: ahpwire.Ptr[int64](0)}); err != nil {
		t.Fatal(err)
	}
	if turn := e.finished(e.c, chat, "t1"); turn.State != ahpwire.TurnCancelled {
		t.Fatalf("state %q", turn.State)
	}
}
