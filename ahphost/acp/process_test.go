package acp

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// Cancel: chat/turnCancelled sends session/cancel; the agent stops and the
// next prompt runs normally.
func TestCancel(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "cancel")
	e.prompt(e.c, chat, "t1", "slow")
	e.eventually("streaming", func() bool {
		st := e.chatState(e.c, chat)
		return st.ActiveTurn != nil && st.ActiveTurn.ResponseParts.Len() > 0
	})
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnCancelled{TurnID: "t1", Duration: ahpwire.Ptr[int64](0)}); err != nil {
		t.Fatal(err)
	}
	if turn := e.finished(e.c, chat, "t1"); turn.State != ahpwire.TurnCancelled {
		t.Fatalf("state %q", turn.State)
	}
	if turn := e.run(e.c, chat, "t2", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("after cancel: %q %q", markdown(turn), errText(turn))
	}
}

// An adapter that ends the prompt after a cancel at once, empty (the old
// Claude Code adapter) is not passed over in silence: that turn ends with
// an error that says so; the next prompt runs normally, and a prompt after
// a cancel that the agent answers is not touched.
func TestEmptyPromptAfterCancelIsShown(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_EMPTY_AFTER_CANCEL=1"}})
	_, chat := e.newSession(e.c, "broken")
	cancel := func(id string) {
		e.prompt(e.c, chat, id, "slow")
		e.eventually("the agent answering", func() bool {
			st := e.chatState(e.c, chat)
			return st.ActiveTurn != nil && st.ActiveTurn.ID == id && st.ActiveTurn.ResponseParts.Len() > 0
		})
		if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnCancelled{TurnID: id, Duration: ahpwire.Ptr[int64](0)}); err != nil {
			t.Fatal(err)
		}
		if turn := e.finished(e.c, chat, id); turn.State != ahpwire.TurnCancelled {
			t.Fatalf("state %q", turn.State)
		}
	}
	cancel("t1")
	turn := e.run(e.c, chat, "t2", "text")
	if turn.State != ahpwire.TurnError || !strings.Contains(errText(turn), "ended this prompt at once with no answer, right after the last one was cancelled") {
		t.Fatalf("empty turn after a cancel: %q %q %q", turn.State, markdown(turn), errText(turn))
	}
	if turn := e.run(e.c, chat, "t3", "text"); markdown(turn) != "Hello from the fake agent." || turn.State != ahpwire.TurnComplete {
		t.Fatalf("next: %q %q", markdown(turn), errText(turn))
	}
}

// A crash ends the turn with the agent's last stderr lines (masked), and
// the next prompt restarts the agent in a fresh session with a notice.
func TestCrashShowsStderrAndRestarts(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "crash")
	e.run(e.c, chat, "t0", "text")
	turn := e.run(e.c, chat, "t1", "crash")
	msg := errText(turn)
	if turn.State != ahpwire.TurnError || !strings.Contains(msg, "fake crash line 1") || !strings.Contains(msg, "fake crash line 2") {
		t.Fatalf("crash: state %q, error %q", turn.State, msg)
	}
	if strings.Contains(msg, "sk-ant-secret") || strings.Contains(e.logs.String(), "sk-ant-secret") {
		t.Fatalf("a secret from stderr was shown or logged: %q", msg)
	}
	turn = e.run(e.c, chat, "t2", "text")
	if md := markdown(turn); !strings.Contains(md, "starts afresh") || !strings.HasSuffix(md, "Hello from the fake agent.") {
		t.Fatalf("after the crash: %q %q", md, errText(turn))
	}
}

// An agent that dies while a child of it holds its stdout open still ends
// the turn with its crash report (the bridge's read of the pipe ends once
// the agent was reaped, pipe_linux.go).
func TestCrashWhileAChildHoldsStdout(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "holdout")
	turn := e.run(e.c, chat, "t1", "holdout")
	pid, err := strconv.Atoi(strings.TrimPrefix(markdown(turn), "child pid "))
	if err != nil {
		t.Fatalf("answer %q", markdown(turn))
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	})
	turn = e.run(e.c, chat, "t2", "crash")
	if msg := errText(turn); turn.State != ahpwire.TurnError || !strings.Contains(msg, "fake crash line 1") {
		t.Fatalf("crash: state %q, error %q", turn.State, msg)
	}
	if turn := e.run(e.c, chat, "t3", "text"); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
		t.Fatalf("after the crash: %q %q", markdown(turn), errText(turn))
	}
}

// After a host restart the sessions are listed (with their titles); opening
// one resumes it with session/load, whose replay rebuilds its turns.
func TestRestartKeepsSessionsResumable(t *testing.T) {
	t.Run("load", func(t *testing.T) { testRestartResumable(t, "FAKEACP_LOAD=1") })
	// An agent that also resumes (Claude Code's adapter) is loaded all
	// the same: resume has no history to show.
	t.Run("load+resume", func(t *testing.T) { testRestartResumable(t, "FAKEACP_LOAD=1", "FAKEACP_RESUME=1") })
	// An agent whose replay goes on after its answer (Gemini CLI 0.61):
	// all of it is the history, none of it the next turn.
	t.Run("late load", func(t *testing.T) { testRestartResumable(t, "FAKEACP_LOAD=late") })
}

func testRestartResumable(t *testing.T, caps ...string) {
	state, agentState := t.TempDir(), t.TempDir()
	env := append(caps, "FAKEACP_STATE="+agentState)
	e := newEnv(t, opts{env: env, state: state})
	session, chat := e.newSession(e.c, "keep")
	e.run(e.c, chat, "t1", "title Kept session")
	e.run(e.c, chat, "t2", "text")
	dir := e.dir
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}

	// The new host's default directory is another one: the session keeps
	// its own (the agent finds it only there).
	e2 := newEnv(t, opts{env: env, state: state})
	if e2.dir == dir {
		t.Fatal("the second host has the same directory")
	}
	res, err := e2.c.c.ListSessions(e2.ctx, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 1 || res.Items[0].Resource != session || res.Items[0].Title != "Kept session" || res.Items[0].Provider != "fake" {
		t.Fatalf("after restart: %+v", res.Items)
	}
	chat2 := e2.open(e2.c, session)
	var st ahpwire.ChatState
	e2.eventually("the replayed history", func() bool {
		st = e2.chatState(e2.c, chat2)
		return len(st.Turns) == 2
	})
	if st.Turns[0].Message.Text != "title Kept session" || markdown(st.Turns[0]) != "Titled." ||
		st.Turns[1].Message.Text != "text" || markdown(st.Turns[1]) != "Hello from the fake agent." {
		t.Fatalf("restored turns %+v", st.Turns)
	}
	turn := e2.run(e2.c, chat2, "t3", "text")
	if md := markdown(turn); md != "Hello from the fake agent." {
		t.Fatalf("resumed session: %q %q", md, errText(turn))
	}
	if !strings.Contains(e2.logs.String(), "agent started") || strings.Contains(e2.logs.String(), "session/load failed") {
		t.Fatalf("logs:\n%s", e2.logs.String())
	}
}

// Without session/load or resume, a session listed after a restart goes
// on in a fresh agent session, which its first reply says, under the
// session's own title.
func TestRestartWithoutLoadStartsAfresh(t *testing.T) {
	state := t.TempDir()
	e := newEnv(t, opts{state: state})
	session, chat := e.newSession(e.c, "afresh")
	e.run(e.c, chat, "t1", "title Kept title")
	dir := e.dir
	_ = e.h.Close()
	e2 := newEnv(t, opts{state: state, dir: dir})
	chat2 := e2.open(e2.c, session)
	turn := e2.run(e2.c, chat2, "t2", "text")
	if md := markdown(turn); turn.State != ahpwire.TurnComplete || !strings.Contains(md, "after the host restarted: it starts afresh") ||
		!strings.HasSuffix(md, "Hello from the fake agent.") {
		t.Fatalf("%q %q %q", turn.State, md, errText(turn))
	}
	if turn := e2.run(e2.c, chat2, "t3", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("the next turn: %q %q", markdown(turn), errText(turn))
	}
	res, err := e2.c.c.ListSessions(e2.ctx, 10, "")
	if err != nil || len(res.Items) != 1 || res.Items[0].Title != "Kept title" {
		t.Fatalf("sessions %+v, %v", res.Items, err)
	}
}

// TestRestartWithoutLoadGivesTheHistory: the fresh agent session that
// replaces one the agent cannot resume gets the chat so far: its first
// prompt opens with a transcript of the earlier turns (each message, the
// reply, a line per tool call), the user's message last, and the reply
// says so; the next prompt goes without it.
func TestRestartWithoutLoadGivesTheHistory(t *testing.T) {
	state, hostState := t.TempDir(), t.TempDir()
	e := newEnv(t, opts{state: state, hostState: hostState})
	session, chat := e.newSession(e.c, "history")
	e.run(e.c, chat, "t1", "text")
	e.run(e.c, chat, "t2", "fail")
	dir := e.dir
	_ = e.h.Close()
	e2 := newEnv(t, opts{state: state, dir: dir, hostState: hostState})
	chat2 := e2.open(e2.c, session)
	md := markdown(e2.run(e2.c, chat2, "t3", "texts"))
	for _, want := range []string{"it starts afresh, given the earlier messages as context",
		historyIntro, "User: text\n\nAssistant: Hello from the fake agent.", "User: fail\n\nAssistant: ", "[tool call: Run the broken tool — failed]", historyOutro} {
		if !strings.Contains(md, want) {
			t.Fatalf("the first prompt after the restart lacks %q:\n%s", want, md)
		}
	}
	if !strings.HasSuffix(md, " | texts") || strings.Index(md, "User: text") > strings.Index(md, "User: fail") {
		t.Fatalf("the transcript is not oldest first, before the user's message:\n%s", md)
	}
	if md := markdown(e2.run(e2.c, chat2, "t4", "texts")); md != "texts" {
		t.Fatalf("the next prompt: %q", md)
	}
}

// A hostile agent: non-JSON lines are skipped; a 100 MB line closes the
// connection with a clear error (the SDK reads at most 10 MiB of a line)
// and the next prompt restarts the agent; a burst of updates streams, a
// flood past the SDK's queue closes the connection.
func TestHostileAgent(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "hostile")
	if turn := e.run(e.c, chat, "t1", "garbage"); markdown(turn) != "Still here." {
		t.Fatalf("garbage: %q %q", markdown(turn), errText(turn))
	}
	turn := e.run(e.c, chat, "t2", "bigline")
	if turn.State != ahpwire.TurnError || !strings.Contains(errText(turn), "agent") {
		t.Fatalf("bigline: %q %q", turn.State, errText(turn))
	}
	if turn := e.run(e.c, chat, "t3", "text"); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
		t.Fatalf("after bigline: %q %q", markdown(turn), errText(turn))
	}
	turn = e.run(e.c, chat, "t4", "flood 500")
	if turn.State != ahpwire.TurnComplete || len(markdown(turn)) != 500 {
		t.Fatalf("burst: %q, %d bytes", turn.State, len(markdown(turn)))
	}
	// A flood far past the SDK's queue of 1024 unhandled notifications
	// streams whole: the bridge handles updates as it reads them
	// (reader.go), so the pipe holds the agent back instead of the SDK
	// closing the connection (a real agent's long reply in small chunks
	// did that).
	turn = e.run(e.c, chat, "t5", "flood 5000")
	if turn.State != ahpwire.TurnComplete || len(markdown(turn)) != 5000 {
		t.Fatalf("flood: %q, %d bytes, %q", turn.State, len(markdown(turn)), errText(turn))
	}
	if turn := e.run(e.c, chat, "t6", "text"); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
		t.Fatalf("after the flood: %q %q", markdown(turn), errText(turn))
	}
}

// An agent that never answers initialize fails the turn with a clear
// error after the request deadline.
func TestInitializeDeadline(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_HANG_INIT=1"}, timeout: 300 * time.Millisecond})
	_, chat := e.newSession(e.c, "hang")
	turn := e.run(e.c, chat, "t1", "text")
	if !strings.Contains(errText(turn), "did not answer initialize within 300ms") {
		t.Fatalf("%q", errText(turn))
	}
}

// An agent that needs a login fails with its own words and its methods.
func TestAuthRequired(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_AUTH=1"}})
	_, chat := e.newSession(e.c, "auth")
	turn := e.run(e.c, chat, "t1", "text")
	if msg := errText(turn); !strings.Contains(msg, "sign in") || !strings.Contains(msg, "Fake login") {
		t.Fatalf("%q", msg)
	}
}

// Every goroutine of the bridge (process waiter, stderr pump, prompts,
// terminal pumps, the SDK's reader) ends with the host.
func TestNoGoroutineLeft(t *testing.T) {
	testkit.LeakCheck(t)
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "leak")
	e.run(e.c, chat, "t1", "terminal")
	e.run(e.c, chat, "t2", "text")
	e.prompt(e.c, chat, "t3", "hang")
	e.eventually("the hanging turn", func() bool { return e.chatState(e.c, chat).ActiveTurn != nil })
}

// A missing command and an agent that exits at once fail the turn with
// what happened (and the agent's own words), not a hang.
func TestBrokenCommands(t *testing.T) {
	e := newEnv(t, opts{command: "/nonexistent/agent"})
	_, chat := e.newSession(e.c, "missing")
	if msg := errText(e.run(e.c, chat, "t1", "text")); !strings.Contains(msg, "cannot start the agent") {
		t.Fatalf("missing command: %q", msg)
	}
	e2 := newEnv(t, opts{command: "sh", args: []string{"-c", "echo 'error: no API key configured' >&2; exit 1"}})
	_, chat2 := e2.newSession(e2.c, "exits")
	if msg := errText(e2.run(e2.c, chat2, "t1", "text")); !strings.Contains(msg, "no API key configured") {
		t.Fatalf("exiting agent: %q", msg)
	}
}
