//go:build !windows

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/internal/testkit"
)

// pane is one tmux session with a private server, running a shell command.
type pane struct {
	t    *testing.T
	work string
}

func startPane(t *testing.T, env []string, command string) *pane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	p := &pane{t: t, work: t.TempDir()}
	must(t, os.MkdirAll(filepath.Join(p.work, "tmux"), 0o700))
	t.Cleanup(func() { killTmux(p.work) })
	args := []string{"new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", "-e", "TERM=xterm-256color",
		"-e", "HOME=" + p.work, "-e", "XDG_STATE_HOME=" + filepath.Join(p.work, "state")}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	p.tmux(args...)
	p.tmux("set-option", "-t", "e2e", "remain-on-exit", "on")
	p.tmux("respawn-pane", "-k", "-t", "e2e", command)
	return p
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := tmuxIn(p.work, args...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (p *pane) screen() string {
	out, _ := capturePane(p.work)
	return out
}

// waitFor polls the screen until re matches and returns the screen.
func (p *pane) waitFor(re string) string {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s := p.screen(); rx.MatchString(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("timed out waiting for %q; screen:\n%s", re, p.screen())
	return ""
}

// appPID returns the pid of the shell's child (the ahptui process).
func (p *pane) appPID() int {
	p.t.Helper()
	sh := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}"))
	b, err := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", sh, sh))
	if err != nil {
		p.t.Skipf("cannot list the shell's children: %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		p.t.Fatalf("the shell has no child; screen:\n%s", p.screen())
	}
	pid, err := strconv.Atoi(f[0])
	must(p.t, err)
	return pid
}

// appCommand runs ahptui demo in a shell that then prints the exit status
// and the terminal modes.
func appCommand(bin, work string) string {
	return fmt.Sprintf(`bash -c 'cd %q && %q demo; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, work, bin)
}

var exitRe = regexp.MustCompile(`EXIT=(\d+)`)

// checkRestored asserts the exit status and that the terminal is back in
// cooked mode with echo (not left raw).
func checkRestored(t *testing.T, screen string, wantExit int) {
	t.Helper()
	m := exitRe.FindStringSubmatch(screen)
	if m == nil || m[1] != strconv.Itoa(wantExit) {
		t.Fatalf("exit status %v, want %d; screen:\n%s", m, wantExit, screen)
	}
	i := strings.Index(screen, "MODES:")
	modes := strings.Join(strings.Fields(screen[i:]), " ")
	for _, want := range []string{" icanon ", " echo ", " isig "} {
		if !strings.Contains(modes+" ", want) {
			t.Fatalf("terminal left raw (want %q): %s", want, modes)
		}
	}
}

// TestTerminalRestoredAfterCrashOutsideUI: a panic in a goroutine outside
// Bubble Tea (which the Go runtime turns into exit status 2 with the
// terminal raw) ends with the terminal restored, exit status 1 and a
// message naming the crash, and the report lands in the log file.
func TestTerminalRestoredAfterCrashOutsideUI(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	bin := sharedBinary(t)
	proj := t.TempDir()
	p := startPane(t, []string{"AHPTUI_TEST_PANIC=goroutine"}, appCommand(bin, proj))
	s := p.waitFor(`MODES:.*\S`)
	checkRestored(t, s, exitError)
	if !strings.Contains(s, "ahptui: internal error: panic: AHPTUI_TEST_PANIC") {
		t.Fatalf("no crash message; screen:\n%s", s)
	}
	log, err := os.ReadFile(filepath.Join(p.work, "state", "ahptui", "ahptui.log"))
	must(t, err)
	if !strings.Contains(string(log), "crash report") || !strings.Contains(string(log), "goroutine") {
		t.Fatalf("crash report not in the log:\n%s", log)
	}
}

// TestTerminalRestoredOnSignals: SIGHUP and SIGTERM sent to a running UI
// (supervised, and with the supervisor off) restore the terminal and exit
// 128+signo.
func TestTerminalRestoredOnSignals(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	bin := sharedBinary(t)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		env  []string
	}{
		{"hup supervised", syscall.SIGHUP, nil},
		{"term supervised", syscall.SIGTERM, nil},
		{"hup direct", syscall.SIGHUP, []string{"AHPTUI_NO_SUPERVISOR=1"}},
		{"term direct", syscall.SIGTERM, []string{"AHPTUI_NO_SUPERVISOR=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startPane(t, tc.env, appCommand(bin, t.TempDir()))
			p.waitFor(`Connected`)
			must(t, syscall.Kill(p.appPID(), tc.sig))
			s := p.waitFor(`MODES:.*\S`)
			checkRestored(t, s, 128+int(tc.sig))
		})
	}
}

// TestExecAskOnTerminal: --approve ask (the default) asks on the
// controlling terminal; "y" approves the edit, then "n" denies the test run
// (exit 4).
func TestExecAskOnTerminal(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	bin := sharedBinary(t)
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir()})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	p := startPane(t, nil, fmt.Sprintf(`bash -c '%q exec %q "/demo tools" > %q; echo EXIT=$?'`, bin, u, filepath.Join(t.TempDir(), "out.md")))
	p.waitFor(`approve .*\? \[y/N\]`)
	p.tmux("send-keys", "-t", "e2e", "y", "Enter")
	p.waitFor(`(?s)approve .*\[y/N\] y\n.*approve .*\? \[y/N\]`)
	p.tmux("send-keys", "-t", "e2e", "n", "Enter")
	s := p.waitFor(`EXIT=\d+`)
	if m := exitRe.FindStringSubmatch(s); m[1] != strconv.Itoa(execCancelled) {
		t.Fatalf("exit %s, want %d; screen:\n%s", m[1], execCancelled, s)
	}
}

// TestInboxInTerminal: plain `ahptui` with hosts but no default opens the
// session picker on every host, grouped by host, each with its own state
// (a down host does not hold up the others); a session of another host
// that starts asking moves up in its group, marked, and rings the bell;
// enter on it attaches to that host without leaving the app, and a token
// never reaches the screen.
func TestInboxInTerminal(t *testing.T) {
	bin := sharedBinary(t)
	u, _ := startTestHost(t)
	h2, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken + "-2"})
	must(t, err)
	t.Cleanup(func() { _ = h2.Close() })
	u2, err := h2.Listen("127.0.0.1:0")
	must(t, err)
	bare, bare2 := strings.Split(u, "?")[0], strings.Split(u2, "?")[0]
	writeConfig(t, "[hosts.up]\nurl = \""+bare+"\"\ntoken_env = \"UP_TOKEN\"\n"+
		"[hosts.two]\nurl = \""+bare2+"\"\ntoken_env = \"TWO_TOKEN\"\n"+
		"[hosts.down]\nurl = \"ws://"+deadAddrFor(t)+"/\"\n[notify]\nbell = true\n")
	t.Setenv("UP_TOKEN", execToken)
	t.Setenv("TWO_TOKEN", execToken+"-2")
	if code, _, errs := runIn(t, "", "exec", "@up", "inbox please"); code != execCompleted {
		t.Fatalf("setup: %d %q", code, errs)
	}
	p := startPane(t, []string{"XDG_CONFIG_HOME=" + os.Getenv("XDG_CONFIG_HOME"), "UP_TOKEN=" + execToken, "TWO_TOKEN=" + execToken + "-2"},
		fmt.Sprintf(`bash -c '%q; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, bin))
	p.waitFor(`@down  down, retrying in \d+s: `)
	p.waitFor(`(?s)@up  connected.*inbox please.*@two  connected.*@down  down`) // file order
	// Live: a session of "two" starts asking a question (another client).
	if code, _, errs := runIn(t, "", "exec", "--json", "@two", "/demo input"); code != execNeedsInput {
		t.Fatalf("question: %d %q", code, errs)
	}
	s := p.waitFor(`(?s)@two  connected.*\? /demo input`)
	if strings.Contains(s, execToken) {
		t.Fatalf("token on screen:\n%s", s)
	}
	if flag := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{window_bell_flag}")); flag != "1" {
		t.Errorf("no bell for the question (bell flag %q)", flag)
	}
	p.tmux("send-keys", "-t", "e2e", "Down")
	p.waitFor(`› .*\? /demo input`)
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`The agent asks`)                // the question of the chosen session, on "two"
	p.tmux("send-keys", "-t", "e2e", "Escape") // later: the chat, on "two"
	p.waitFor(`(?s)1 waiting for you.*two \(`)
	for end := time.Now().Add(30 * time.Second); strings.Contains(p.screen(), "The agent asks"); { // esc then ctrl+s at once would read as alt+ctrl+s
		if time.Now().After(end) {
			t.Fatalf("the question stayed open:\n%s", p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.tmux("send-keys", "-t", "e2e", "C-s") // back to the sessions: every host again
	p.waitFor(`(?s)@up  connected.*@two  connected · attached.*@down  down`)
	p.tmux("send-keys", "-t", "e2e", "C-c")
	checkRestored(t, p.waitFor(`MODES:.*\S`), exitOK)
	logb, err := os.ReadFile(filepath.Join(p.work, "state", "ahptui", "ahptui.log"))
	must(t, err)
	if !strings.Contains(string(logb), "host connected") || strings.Contains(string(logb), execToken) {
		t.Fatalf("log without the hosts, or with a token:\n%s", logb)
	}
}

// TestConnectingScreen: against a host that accepts but never answers, the
// UI shows the connecting screen at once (the URL with its credentials
// masked, the time spent), ctrl+c leaves it and the terminal is restored.
func TestConnectingScreen(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	bin := sharedBinary(t)
	addr := testkit.SilentListener(t)
	u := "ws://alice:PW-hidden-1@" + addr + "/?tkn=TK-hidden-2"
	p := startPane(t, nil, fmt.Sprintf(`bash -c '%q %q; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, bin, u))
	s := p.waitFor(`Connecting to .*` + regexp.QuoteMeta(addr))
	p.waitFor(`waiting for the host to answer… [1-9]s`)
	if strings.Contains(s, "hidden") {
		t.Fatalf("credentials on screen:\n%s", s)
	}
	p.tmux("send-keys", "-t", "e2e", "C-c")
	s = p.waitFor(`MODES:.*\S`) // the silent host never answers: only ctrl+c ends the wait
	if strings.Contains(s, "hidden") {
		t.Fatalf("credentials on screen:\n%s", s)
	}
	m := exitRe.FindStringSubmatch(s)
	checkRestored(t, s, atoi(t, m[1]))
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	must(t, err)
	return n
}
