package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestDurableHostKeepsACPHistory: a durable host restarted with the same
// fake agent shows the chat from its database, not the agent's replay:
// the same turns once each, the edit's diff (its sides still readable),
// the denied tool call as denied, the changeset with its reviewed mark.
// The next prompt re-binds the agent's session with session/resume, or
// with session/load when the agent has no resume (its replay of the
// turns is dropped), and the new turn follows the old ones, none twice.
func TestDurableHostKeepsACPHistory(t *testing.T) {
	t.Run("resume", func(t *testing.T) { testDurableHostKeepsACPHistory(t, "FAKEACP_LOAD=1", "FAKEACP_RESUME=1") })
	t.Run("load", func(t *testing.T) { testDurableHostKeepsACPHistory(t, "FAKEACP_LOAD=1") })
	// Gemini CLI 0.61 answers session/load before its replay is over: the
	// rest of the old turns must not open the new turn's reply.
	t.Run("late load", func(t *testing.T) { testDurableHostKeepsACPHistory(t, "FAKEACP_LOAD=late") })
}

func testDurableHostKeepsACPHistory(t *testing.T, caps ...string) {
	state, agentState, hostState := t.TempDir(), t.TempDir(), t.TempDir()
	env := append(caps, "FAKEACP_STATE="+agentState)
	e := newEnv(t, opts{env: env, state: state, hostState: hostState})
	if err := os.WriteFile(filepath.Join(e.dir, "hello.txt"), []byte("first line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	session, chat := e.newSession(e.c, "kept")
	e.run(e.c, chat, "t1", "title Kept session")
	e.run(e.c, chat, "t2", "diff")
	e.prompt(e.c, chat, "t3", "tool")
	tc := e.pendingTool(e.c, chat)
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatToolCallConfirmed{TurnID: "t3", ToolCallID: tc.ToolCallID,
		Approved: false, Reason: ahpwire.CancelDenied}); err != nil {
		t.Fatal(err)
	}
	e.finished(e.c, chat, "t3")
	st := e.chatState(e.c, chat)
	if len(st.Changesets) != 1 {
		t.Fatalf("changesets %+v", st.Changesets)
	}
	cs := st.Changesets[0].URITemplate
	snap, err := e.c.c.Subscribe(e.ctx, cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var csState ahpwire.ChangesetState
	if err := json.Unmarshal(snap.State, &csState); err != nil || len(csState.Files) != 1 {
		t.Fatalf("changeset %s: %v", snap.State, err)
	}
	if _, err := e.c.c.Dispatch(e.ctx, cs, &ahpwire.ChangesetFilesReviewChanged{Files: []string{csState.Files[0].ID}, Reviewed: true}); err != nil {
		t.Fatal(err)
	}
	e.eventually("the reviewed mark", func() bool {
		snap, err := e.c.c.Subscribe(e.ctx, cs, nil)
		return err == nil && strings.Contains(string(snap.State), `"reviewed":true`)
	})
	before, _ := json.Marshal(e.chatState(e.c, chat))
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := newEnv(t, opts{env: env, state: state, hostState: hostState})
	chat2 := e2.open(e2.c, session)
	if chat2 != chat {
		t.Fatalf("default chat %s, was %s", chat2, chat)
	}
	after, _ := json.Marshal(e2.chatState(e2.c, chat))
	if string(after) != string(before) {
		t.Fatalf("chat changed across the restart:\nbefore %s\nafter  %s", before, after)
	}
	var got ahpwire.ChatState
	_ = json.Unmarshal(after, &got)
	if len(got.Turns) != 3 {
		t.Fatalf("%d turns after restart", len(got.Turns))
	}
	var edit *ahpwire.ToolResultContent
	for _, c := range toolCalls(got.Turns[1].ResponseParts)[0].Content {
		if c.Type == ahpwire.ContentFileEdit {
			edit = &c
		}
	}
	if edit == nil || edit.After == nil {
		t.Fatalf("the edit's diff is gone: %+v", got.Turns[1].ResponseParts)
	}
	if r, err := e2.c.c.ResourceRead(e2.ctx, edit.After.Content.URI, ""); err != nil || string(r.Data) != "first line\nhello from the fake agent\n" {
		t.Fatalf("the edit's after side: %q, %v", r.Data, err)
	}
	if denied := toolCalls(got.Turns[2].ResponseParts)[0]; denied.Status != ahpwire.ToolCancelled {
		t.Fatalf("the denied call is %q after restart", denied.Status)
	}
	if snap, err := e2.c.c.Subscribe(e2.ctx, cs, nil); err != nil || !strings.Contains(string(snap.State), `"reviewed":true`) {
		t.Fatalf("changeset after restart: %s, %v", snap.State, err)
	}
	turn := e2.run(e2.c, chat, "t4", "text")
	if md := markdown(turn); md != "Hello from the fake agent." {
		t.Fatalf("the session after restart: %q %q", md, errText(turn))
	}
	if n := len(e2.chatState(e2.c, chat).Turns); n != 4 {
		t.Fatalf("%d turns after the new one, want 4 (no replayed duplicates)", n)
	}
	if logs := e2.logs.String(); strings.Contains(logs, "session/resume failed") || strings.Contains(logs, "session/load failed") {
		t.Fatalf("logs:\n%s", logs)
	}
}

// TestDurableHostAgentLostSession: after a restart the agent cannot load
// the session it had (Gemini CLI 0.61 cannot in the minute it created it;
// here its files are gone): the next prompt goes on in a fresh agent
// session, its reply says so, and the chat keeps its turns from the
// host's database, the new one after them.
func TestDurableHostAgentLostSession(t *testing.T) {
	state, agentState, hostState := t.TempDir(), t.TempDir(), t.TempDir()
	env := []string{"FAKEACP_LOAD=1", "FAKEACP_STATE=" + agentState}
	e := newEnv(t, opts{env: env, state: state, hostState: hostState})
	session, chat := e.newSession(e.c, "lost")
	e.run(e.c, chat, "t1", "text")
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(agentState); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(agentState, 0o700); err != nil {
		t.Fatal(err)
	}

	e2 := newEnv(t, opts{env: env, state: state, hostState: hostState})
	if chat2 := e2.open(e2.c, session); chat2 != chat {
		t.Fatalf("default chat %s, was %s", chat2, chat)
	}
	turn := e2.run(e2.c, chat, "t2", "text")
	if md := markdown(turn); turn.State != ahpwire.TurnComplete || !strings.Contains(md, "after the host restarted: it starts afresh") ||
		!strings.HasSuffix(md, "Hello from the fake agent.") {
		t.Fatalf("the prompt after the restart: %q %q %q", turn.State, md, errText(turn))
	}
	st := e2.chatState(e2.c, chat)
	if len(st.Turns) != 2 || st.Turns[0].Message.Text != "text" || markdown(st.Turns[0]) != "Hello from the fake agent." {
		t.Fatalf("turns after the restart: %+v", st.Turns)
	}
	if !strings.Contains(e2.logs.String(), "session/load failed") {
		t.Fatalf("logs:\n%s", e2.logs.String())
	}
}
