//go:build !windows

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// pendingTools lists the tool calls of the host's sessions that wait for a
// decision (read over a client of its own).
func pendingTools(t *testing.T, u string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: u, StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	res, err := c.ListSessions(ctx, 100, "")
	must(t, err)
	var out []string
	for _, s := range res.Items {
		if s.DefaultChat == "" {
			continue
		}
		snap, err := c.Subscribe(ctx, s.DefaultChat, nil)
		must(t, err)
		st, err := ahpwire.DecodeChatState(snap.State)
		must(t, err)
		if st.ActiveTurn == nil {
			continue
		}
		for _, p := range st.ActiveTurn.ResponseParts.All() {
			if p.ToolCall != nil && p.ToolCall.Status == ahpwire.ToolPendingConfirmation {
				out = append(out, p.ToolCall.ToolCallID)
			}
		}
	}
	return out
}

// twoHosts configures hosts a and b (embedded, on loopback), runs
// `exec @b prompt` (it stops where b waits for the user) and starts
// `ahptui @a` in a real terminal with a chat on a open. It returns the
// pane and b's URL.
func twoHosts(t *testing.T, prompt string) (*pane, string) {
	t.Helper()
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		f.Close()
		t.Skip("this test process has a controlling terminal (exec would ask there)")
	}
	ua, _ := startTestHost(t)
	ub, _ := startTestHost(t)
	conf := t.TempDir()
	path := filepath.Join(conf, "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	must(t, os.WriteFile(path, []byte("[hosts.a]\nurl = \""+strings.Split(ua, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"+
		"[hosts.b]\nurl = \""+strings.Split(ub, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"), 0o600))
	t.Setenv("XDG_CONFIG_HOME", conf)
	t.Setenv("HOST_TOKEN", execToken)
	if code, _, errs := runIn(t, "", "exec", "@b", prompt); code != execNeedsInput {
		t.Fatalf("%s on b: %d %q", prompt, code, errs)
	}
	bin := sharedBinary(t)
	p := startPane(t, []string{"XDG_CONFIG_HOME=" + conf, "HOST_TOKEN=" + execToken}, bin+" @a")
	// A new chat on a: quick start opens one when a's empty list comes
	// first; else the picker shows and ctrl+n creates it.
	if !strings.Contains(p.waitFor(`No messages yet|@b  connected`), "No messages yet") {
		p.tmux("send-keys", "-t", "e2e", "C-n")
		p.waitFor(`enter create`)
		p.tmux("send-keys", "-t", "e2e", "Enter")
		p.waitFor(`No messages yet`)
	}
	p.tmux("send-keys", "-t", "e2e", "-l", "hello from a")
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`(?s)hello from a.*Message…`)
	p.tmux("send-keys", "-t", "e2e", "C-s")
	p.waitFor(`1 need you`)
	return p, ub
}

// TestInboxApprovesOnAnotherHost: `ahptui @a` in a real terminal with a
// chat on host a open; a session on host b waits for an approval. From the
// inbox (ctrl+s) its row says so, tab jumps to it, ctrl+p shows it with
// its approval, and "a" approves it over host b's connection: the tool
// call on b is no longer waiting, and the UI is still attached to a.
func TestInboxApprovesOnAnotherHost(t *testing.T) {
	p, ub := twoHosts(t, "/demo tools")
	before := pendingTools(t, ub)
	if len(before) != 1 {
		t.Fatalf("want one tool call waiting on b, got %v", before)
	}
	p.waitFor(`/demo tools  demo · needs approval`) // read from b's chat: an approval, not a question
	p.tmux("send-keys", "-t", "e2e", "Tab")
	p.tmux("send-keys", "-t", "e2e", "C-p")
	p.waitFor(`(?s)Approval needed.*a/y approve`)
	p.tmux("send-keys", "-t", "e2e", "a")
	p.waitFor(`approve tool on @b: sent`)
	deadline := time.Now().Add(testTimeout)
	for {
		still := false
		for _, id := range pendingTools(t, ub) {
			still = still || id == before[0]
		}
		if !still {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the approval did not reach host b:\n%s", p.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s := p.screen(); !strings.Contains(s, "a (127.0.0.1") {
		t.Fatalf("the UI left host a:\n%s", s)
	}
}

// TestInboxAnswersOnAnotherHost: a question on host b is answered from
// the inbox with the chat's own form (its defaults, enter through the
// fields); b's session stops waiting; then a peek at it shows its last
// lines, the question among them.
func TestInboxAnswersOnAnotherHost(t *testing.T) {
	p, ub := twoHosts(t, "/demo input")
	p.waitFor(`/demo input  demo · needs input`)
	p.tmux("send-keys", "-t", "e2e", "Tab")
	p.tmux("send-keys", "-t", "e2e", "C-p")
	p.waitFor(`Project name`)
	for i := 0; i < 12 && !strings.Contains(p.screen(), "answer question on @b: sent"); i++ {
		p.tmux("send-keys", "-t", "e2e", "Enter")
		time.Sleep(150 * time.Millisecond)
	}
	p.waitFor(`answer question on @b: sent`)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: ub, StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	deadline := time.Now().Add(testTimeout)
	for {
		res, err := c.ListSessions(ctx, 10, "")
		must(t, err)
		if len(res.Items) == 1 && res.Items[0].Status.Activity() != ahpwire.StatusInputNeeded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answer did not reach host b: %+v\n%s", res.Items, p.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.waitFor(`/demo input  demo · (done|working)`)
	p.tmux("send-keys", "-t", "e2e", "C-p") // the same row: a peek, nothing waits
	p.waitFor(`(?s)/demo input · @b.*nothing waits for you.*› /demo input.*open the chat`)
}
