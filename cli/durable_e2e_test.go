package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/internal/tmuxctl"
)

// durableRig is a real `ahptui serve` on a fixed address and state
// directory, restarted by the test, with its clients as real processes.
type durableRig struct {
	t     *testing.T
	bin   string
	addr  string
	state string
	proj  string
	env   []string
	cmd   *exec.Cmd
	errb  *testkit.SyncBuffer
	tmux  string // private tmux socket name ("" = none)
	xdg   string // the clients' XDG_STATE_HOME
}

func newDurableRig(t *testing.T) *durableRig {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	r := &durableRig{t: t, bin: sharedBinary(t), addr: addr, state: t.TempDir(), proj: t.TempDir()}
	if err := os.WriteFile(filepath.Join(r.proj, "README.md"), []byte("# durable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.xdg = t.TempDir()
	r.env = append(os.Environ(), "XDG_STATE_HOME="+r.xdg, "XDG_CONFIG_HOME="+t.TempDir(), "AHPTUI_CONFIG=", "AHPTUI_TOKEN=", "NO_COLOR=1")
	t.Cleanup(func() {
		if r.cmd != nil && r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
		if r.tmux != "" {
			_ = r.tmuxCmd("kill-server").Run()
		}
	})
	return r
}

// url is the host's connect URL.
func (r *durableRig) url() string { return "ws://" + r.addr }

// start runs the host and waits for its URL line.
func (r *durableRig) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "serve", "--addr", r.addr, "--token", "tok-durable", "--state-dir", r.state,
		"--dir", r.proj, "--pace", "4ms")
	r.startCmd()
}

// startCmd runs r.cmd (a serve on r's address and token) and waits for
// its URL line, which it returns.
func (r *durableRig) startCmd() string {
	r.t.Helper()
	r.cmd.Env = r.env
	r.errb = &testkit.SyncBuffer{}
	r.cmd.Stderr = r.errb
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		r.t.Fatalf("serve did not start: %v\n%s", err, r.errb.String())
	}
	return strings.TrimSpace(line)
}

// stop ends the host with sig and waits for it.
func (r *durableRig) stop(sig syscall.Signal) {
	r.t.Helper()
	_ = r.cmd.Process.Signal(sig)
	_ = r.cmd.Wait()
}

// run runs an ahptui client command and returns its stdout.
func (r *durableRig) run(args ...string) string {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env, cmd.Dir = r.env, r.proj
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("ahptui %s: %v\n%s%s", strings.Join(args, " "), err, out, errb.String())
	}
	return string(out)
}

func (r *durableRig) tmuxCmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-L", r.tmux}, args...)...)
	c.Env = tmuxctl.PrivateEnv(os.Environ(), "")
	return c
}

// screen returns the TUI's screen.
func (r *durableRig) screen() string {
	out, _ := r.tmuxCmd("capture-pane", "-p", "-t", "d").Output()
	return string(out)
}

// waitScreen waits until every want is on the TUI's screen.
func (r *durableRig) waitScreen(what string, want ...string) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := r.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s: %q not on screen:\n%s", what, want, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestServeRestartLosesNothing: a `serve` process stopped (SIGTERM) or
// killed (-9) while a reply streams to an exec client, with the TUI
// attached in tmux, and started again on the same address and state
// directory: export after the restart holds export before it plus every
// line the exec client had received, then the interruption mark; the exec
// client and the attached TUI are told the turn was interrupted.
func TestServeRestartLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			r := newDurableRig(t)
			r.start()
			first := r.run("exec", r.url(), "--token", "tok-durable", "Explain the project layout")
			var listed struct {
				Resource string `json:"resource"`
			}
			lines := strings.Split(strings.TrimSpace(r.run("sessions", r.url(), "--token", "tok-durable", "--json")), "\n")
			if err := json.Unmarshal([]byte(lines[0]), &listed); err != nil || len(lines) != 1 {
				t.Fatalf("sessions: %v %q", err, lines)
			}
			session := listed.Resource

			r.tmux = fmt.Sprintf("ahptui-durable-%d-%d", os.Getpid(), sig)
			tui := fmt.Sprintf("XDG_STATE_HOME=%s %s %s --token tok-durable; sleep 60", r.xdg, r.bin, r.url())
			if err := r.tmuxCmd("new-session", "-d", "-s", "d", "-x", "80", "-y", "24", tui).Run(); err != nil {
				t.Fatal(err)
			}
			r.waitScreen("session list", "Explain the project layout")
			_ = r.tmuxCmd("send-keys", "-t", "d", "Enter").Run()
			r.waitScreen("chat open", "Shall I start with the test?")

			// A long reply streams to an exec client (and the TUI).
			execCmd := exec.Command(r.bin, "exec", r.url(), "--token", "tok-durable", "--session", session, "/demo slow")
			execCmd.Env, execCmd.Dir = r.env, r.proj
			var streamed, notes testkit.SyncBuffer
			execCmd.Stdout, execCmd.Stderr = &streamed, &notes
			if err := execCmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(streamed.String(), "line 30 of 200") {
				if time.Now().After(deadline) {
					t.Fatalf("the reply does not stream: %q %s", streamed.String(), notes.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			before := r.run("export", r.url(), "--token", "tok-durable", session)
			r.stop(sig)
			got := streamed.String() // everything the exec client received
			r.start()
			if err := execCmd.Wait(); err == nil {
				t.Fatalf("exec succeeded on an interrupted turn: %s", notes.String())
			}
			if !strings.Contains(notes.String(), "The host stopped while this reply was being written") {
				t.Fatalf("exec was not told of the interruption: %s", notes.String())
			}
			// Export while the reply streams shows it so far, marked running;
			// export after the restart is the same text, continued with what
			// streamed until the stop, then the interruption mark.
			running := "\n_(running)_\n"
			if !strings.HasSuffix(before, running) || !strings.Contains(before, "line 30 of 200") {
				t.Fatalf("export while the reply streams does not show it so far:\n%s", before)
			}
			after := r.run("export", r.url(), "--token", "tok-durable", session)
			if !strings.HasPrefix(after, strings.TrimRight(strings.TrimSuffix(before, running), "\n")) {
				t.Fatalf("export before the stop is not kept:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			mark := "\n> error: The host stopped while this reply was being written; what had arrived is kept. Resume to continue.\n\n_(error)_\n"
			if !strings.HasSuffix(after, mark) {
				t.Fatalf("export does not end with the interruption mark:\n%s", after)
			}
			reply := strings.TrimSuffix(after, mark)
			reply = strings.TrimSpace(reply[strings.LastIndex(reply, "## Agent\n"):])
			if !strings.Contains(reply, strings.TrimSpace(got)) || !strings.Contains(after, strings.TrimSpace(first)[:40]) {
				t.Fatalf("lines the exec client received are missing after the restart:\nreceived:\n%s\nexported reply:\n%s", got, reply)
			}
			// The attached TUI reconnects and shows the chat as kept: the
			// reply's last line above the mark.
			kept := regexp.MustCompile(`line \d+ of 200`).FindAllString(reply, -1)
			r.waitScreen("TUI after the restart", "Connected", "The host stopped while this reply")
			if flat := strings.Join(strings.Fields(r.screen()), " "); !strings.Contains(flat, kept[len(kept)-1]) {
				t.Fatalf("the attached TUI does not show the reply's last kept line (%s):\n%s", kept[len(kept)-1], r.screen())
			}
		})
	}
}

// TestServeRefusesHeldOrDamagedState: a second `serve` on a state
// directory in use exits naming the running one (pid, address) and
// --state-dir; on a damaged database it exits saying so, leaving the file
// as it was.
func TestServeRefusesHeldOrDamagedState(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	r.start()
	second := exec.Command(r.bin, "serve", "--addr", "127.0.0.1:0", "--state-dir", r.state, "--dir", r.proj)
	second.Env = r.env
	out, err := second.CombinedOutput()
	msg := string(out)
	if err == nil || !strings.Contains(msg, fmt.Sprintf("pid %d", r.cmd.Process.Pid)) || !strings.Contains(msg, r.addr) ||
		!strings.Contains(msg, "--state-dir") {
		t.Fatalf("second host on a held state directory: %v\n%s", err, msg)
	}
	r.stop(syscall.SIGTERM)

	path := filepath.Join(r.state, "state.db")
	damaged := []byte(strings.Repeat("not a database ", 1000))
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	third := exec.Command(r.bin, "serve", "--addr", "127.0.0.1:0", "--state-dir", r.state, "--dir", r.proj)
	third.Env = r.env
	out, err = third.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is damaged") || !strings.Contains(string(out), path) {
		t.Fatalf("serve on a damaged database: %v\n%s", err, out)
	}
	if now, _ := os.ReadFile(path); string(now) != string(damaged) {
		t.Fatal("the damaged database was changed")
	}
}
