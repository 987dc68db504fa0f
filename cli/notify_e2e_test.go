//go:build !windows

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNotifyReachesThePane: `ahptui @a` runs in a real tmux pane (its
// output piped to a file with pipe-pane, so the test reads the raw bytes
// the app wrote) and shows a chat on host a; a session on host b starts
// needing the user. The pane receives the bell and the OSC 9 notification
// wrapped in tmux's DCS passthrough ($TMUX is set in the pane), and the
// window title carries the count of sessions that need the user.
func TestNotifyReachesThePane(t *testing.T) {
	ua, _ := startTestHost(t)
	ub, _ := startTestHost(t)
	conf := t.TempDir()
	path := filepath.Join(conf, "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	must(t, os.WriteFile(path, []byte("[notify]\nbell = true\ndesktop = \"osc9\"\n"+
		"[hosts.a]\nurl = \""+strings.Split(ua, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"+
		"[hosts.b]\nurl = \""+strings.Split(ub, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"), 0o600))
	t.Setenv("XDG_CONFIG_HOME", conf)
	t.Setenv("HOST_TOKEN", execToken)
	bin := sharedBinary(t)
	p := startPane(t, []string{"XDG_CONFIG_HOME=" + conf, "HOST_TOKEN=" + execToken}, bin+" @a")
	raw := filepath.Join(t.TempDir(), "pane.raw")
	p.tmux("pipe-pane", "-o", "-t", "e2e", "cat >> "+raw)
	p.waitFor(`Connected`)
	time.Sleep(500 * time.Millisecond) // host b's watcher lists its sessions
	if code, _, errs := runIn(t, "", "exec", "@b", "/demo input"); code != execNeedsInput {
		t.Fatalf("a question on b: %d %q", code, errs)
	}
	deadline := time.Now().Add(testTimeout)
	wantDesktop := "\x1bPtmux;\x1b\x1b]9;"
	for {
		b, _ := os.ReadFile(raw)
		s := string(b)
		if strings.Contains(s, "\a") && strings.Contains(s, wantDesktop) && strings.Contains(s, "\x1b]2;(1) ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not receive the bell, the wrapped OSC 9 and the title count:\n%q", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTurnEndOnAnotherHostReachesThePane: `ahptui @a` in a real tmux pane
// (raw output piped to a file) shows a chat on host a; a turn another
// client runs on host b finishes. The pane receives the bell and the OSC
// 777 desktop notification naming it finished on @b (through tmux's DCS
// passthrough); the title counts no one waiting. When a session on b then
// needs the user, the title says (1).
func TestTurnEndOnAnotherHostReachesThePane(t *testing.T) {
	ua, _ := startTestHost(t)
	ub, _ := startTestHost(t)
	conf := t.TempDir()
	path := filepath.Join(conf, "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	must(t, os.WriteFile(path, []byte("[notify]\nbell = true\ndesktop = \"osc777\"\n"+
		"[hosts.a]\nurl = \""+strings.Split(ua, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"+
		"[hosts.b]\nurl = \""+strings.Split(ub, "?")[0]+"\"\ntoken_env = \"HOST_TOKEN\"\n"), 0o600))
	t.Setenv("XDG_CONFIG_HOME", conf)
	t.Setenv("HOST_TOKEN", execToken)
	bin := sharedBinary(t)
	p := startPane(t, []string{"XDG_CONFIG_HOME=" + conf, "HOST_TOKEN=" + execToken}, bin+" @a")
	raw := filepath.Join(t.TempDir(), "pane.raw")
	p.tmux("pipe-pane", "-o", "-t", "e2e", "cat >> "+raw)
	// A chat open on a (quick start, else ctrl+n), b listed beside it.
	if !strings.Contains(p.waitFor(`No messages yet|@b  connected`), "No messages yet") {
		p.tmux("send-keys", "-t", "e2e", "C-n")
		p.waitFor(`enter create`)
		p.tmux("send-keys", "-t", "e2e", "Enter")
		p.waitFor(`No messages yet`)
	}
	time.Sleep(500 * time.Millisecond) // host b's watcher lists its sessions
	if code, _, errs := runIn(t, "", "exec", "@b", "hello from b"); code != exitOK {
		t.Fatalf("a turn on b: %d %q", code, errs)
	}
	wantDone := "\x1bPtmux;\x1b\x1b]777;notify;ahptui;hello from b on @b finished\a\x1b\\"
	waitRaw(t, p, raw, "the bell and the wrapped OSC 777 of the finished turn", func(s string) bool {
		return strings.Contains(s, "\a") && strings.Contains(s, wantDone)
	})
	if b, _ := os.ReadFile(raw); strings.Contains(string(b), "\x1b]2;(1) ") {
		t.Fatalf("a finished turn counted as needing the user:\n%q", b)
	}
	if code, _, errs := runIn(t, "", "exec", "@b", "/demo input"); code != execNeedsInput {
		t.Fatalf("a question on b: %d %q", code, errs)
	}
	waitRaw(t, p, raw, "the title count", func(s string) bool { return strings.Contains(s, "\x1b]2;(1) ") })
}

// waitRaw polls the pane's raw output until ok holds.
func waitRaw(t *testing.T, p *pane, raw, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		b, _ := os.ReadFile(raw)
		if ok(string(b)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not receive %s:\n%q\n%s", what, b, p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
