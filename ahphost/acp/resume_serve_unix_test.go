//go:build unix

package acp

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

var (
	serveOnce sync.Once
	serveBin  string
	serveErr  error
)

// ahptuiBin builds the ahptui command once for the package's tests (in the
// fake agent's build directory, removed by TestMain).
func ahptuiBin(t *testing.T) string {
	t.Helper()
	serveOnce.Do(func() {
		serveBin = filepath.Join(filepath.Dir(fakeBin), "ahptui")
		if out, err := exec.Command("go", "build", "-o", serveBin, "github.com/ahptui/ahptui").CombinedOutput(); err != nil {
			serveErr = err
			t.Logf("go build:\n%s", out)
		}
	})
	if serveErr != nil {
		t.Fatal(serveErr)
	}
	return serveBin
}

// startServe starts `ahptui serve` with the fake agent on hostState and
// returns an env whose client is dialled to it, and the process.
func startServe(t *testing.T, hostState, dir string, agentEnv []string) (*env, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(ahptuiBin(t), "serve", "--without-connection-token", "--pace", "0", "--dir", dir,
		"--state-dir", hostState, "--agent", "fake="+fakeBin, "--log-level", "error")
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), agentEnv...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	e := &env{t: t, url: strings.TrimSpace(line), dir: dir, logs: &logBuf{}}
	e.ctx, e.cancel = context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(e.cancel)
	e.c = e.dial()
	return e, cmd
}

// TestResumeAfterServeKilled: a real `ahptui serve` with the fake agent is
// killed with SIGKILL while a reply streams; started again on the same
// state directory, it shows the turn interrupted with what had streamed,
// and chat/turnResume continues that reply in the same turn (the agent's
// session re-bound with session/resume, asked to continue, not to answer
// the message again).
func TestResumeAfterServeKilled(t *testing.T) {
	hostState, agentState := t.TempDir(), t.TempDir()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	agentEnv := []string{"FAKEACP_LOAD=1", "FAKEACP_RESUME=1", "FAKEACP_STATE=" + agentState}
	e, cmd := startServe(t, hostState, dir, agentEnv)
	session, chat := e.newSession(e.c, "killed")
	e.run(e.c, chat, "t1", "text")
	e.prompt(e.c, chat, "t2", "slow")
	e.eventually("some of the slow reply", func() bool {
		st := e.chatState(e.c, chat)
		return st.ActiveTurn != nil && strings.Contains(markdownParts(st.ActiveTurn.ResponseParts.Slice()), "chunk 3.")
	})
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = cmd.Wait()

	e2, _ := startServe(t, hostState, dir, agentEnv)
	e2.open(e2.c, session)
	st := e2.chatState(e2.c, chat)
	if len(st.Turns) != 2 || st.Turns[1].State != ahpwire.TurnError || !strings.Contains(interruptedText(st.Turns[1]), "chunk 3.") {
		t.Fatalf("after the kill: %d turns, last %+v", len(st.Turns), st.Turns[len(st.Turns)-1])
	}
	before := interruptedText(st.Turns[1])
	if _, err := e2.c.c.Dispatch(e2.ctx, chat, &ahpwire.ChatTurnResume{TurnID: "t2"}); err != nil {
		t.Fatal(err)
	}
	checkContinued(t, e2.finished(e2.c, chat, "t2"), before)
	if n := len(e2.chatState(e2.c, chat).Turns); n != 2 {
		t.Fatalf("%d turns after the resume, want 2 (no replayed duplicates)", n)
	}
}
