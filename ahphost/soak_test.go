package ahphost

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// Soak budgets (documented in doc.go and docs/LIMITS.md): the host's peak
// RSS (VmHWM) while every attack of issue 11 runs at once stays under
// soakRSSBudget (×3 with the race detector, which multiplies memory), and
// a well-behaved client completes a turn at least every soakTurnGap.
const (
	soakRSSBudget = 512 << 20
	soakTurnGap   = 20 * time.Second
)

// soakMinTurns is how many turns the well-behaved client completes at
// least while the attacks run: the soak lasts soakDuration and, on a
// machine so loaded that turns are slow, until that many completed (each
// within the turn gap). A count of turns in a fixed time depended on the
// load (2 of 3 at load 17).
const soakMinTurns = 3

// soakDuration is 20 s (10 s with -short), or $AHPTUI_SOAK for a long soak.
func soakDuration() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("AHPTUI_SOAK")); err == nil && d > 0 {
		return d // a long soak: AHPTUI_SOAK=10m go test -run TestSoak ./ahphost
	}
	if testing.Short() {
		return 10 * time.Second
	}
	return 20 * time.Second
}

// startServeProcess runs the real `ahptui serve` (built once from the
// module root) and returns its URL and process.
func startServeProcess(t *testing.T, args ...string) (string, *serveProcess, *testkit.SyncBuffer) {
	t.Helper()
	bin := buildAhptui(t)
	cmd := exec.Command(bin, append([]string{"serve", "--dir", t.TempDir()}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()) // its serve.json stays private
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	sp := &serveProcess{Cmd: cmd}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = sp.wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve process: %v; stderr:\n%s", err, stderr.String())
	}
	return strings.TrimSpace(line), sp, stderr
}

// serveProcess is a `serve` child whose Wait may be called from more than
// one place (the test and its cleanup): it runs exec.Cmd.Wait once.
type serveProcess struct {
	*exec.Cmd
	once sync.Once
	err  error
}

// wait waits for the process to exit (once) and returns Wait's error.
func (p *serveProcess) wait() error {
	p.once.Do(func() { p.err = p.Cmd.Wait() })
	return p.err
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// buildAhptui builds the ahptui command once per test binary (its directory
// is removed by TestMain).
func buildAhptui(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ahphost-serve-*")
		if err != nil {
			buildErr = err
			return
		}
		buildDir = dir
		builtBin = filepath.Join(dir, "ahptui")
		if out, err := exec.Command("go", "build", "-o", builtBin, "github.com/ahptui/ahptui").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// waitLong reads messages (dropping them) until match or timeout.
func waitLong(t *testing.T, w *wsClient, timeout time.Duration, match func(wire) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		raw, err := w.readMsg(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting: %v", err)
		}
		if match(decodeWire(t, raw)) {
			return
		}
	}
	t.Fatal("timed out")
}

// procStatusKB reads a kB field (VmHWM, VmRSS) of /proc/PID/status.
func procStatusKB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return -1
}

// TestSoakAllAttacksAtOnce runs every host attack of issue 11 concurrently
// against one `serve` subprocess (loopback only, bounded loops) and
// asserts that its peak RSS stays under soakRSSBudget, that a well-behaved
// client keeps completing turns, that no attack observes a forbidden
// behaviour and that SIGTERM still stops the host promptly.
func TestSoakAllAttacksAtOnce(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Fatalf("the soak test measures RSS through /proc: %v", err)
	}
	u, cmd, stderr := startServeProcess(t, "--without-connection-token", "--pace", "1ms", "--log-level", "error")
	pid := cmd.Process.Pid

	// Setup: a ~16 MB chat (two 8 MiB replies) to amplify, and a busy chat.
	setup := dial(t, u, nil)
	setup.initialize("setup", nil, nil)
	bigChat := setup.createSession("ahp-session:/big")
	setup.call("subscribe", map[string]any{"channel": bigChat})
	for i, id := range []string{"b1", "b2"} {
		setup.sendMessage(bigChat, id, "/demo big 8m", uint64(i+1))
		waitLong(t, setup, 2*time.Minute, func(m wire) bool {
			return m.Method == "action" && strings.Contains(string(m.Params), `"chat/turnComplete"`)
		})
	}
	setup.close()

	good := dial(t, u, nil)
	good.initialize("good", nil, nil)
	chat := good.createSession("ahp-session:/good")
	good.call("subscribe", map[string]any{"channel": chat})

	// The race detector slows both processes several times over on a
	// loaded 2-core machine: allow longer turns and halve the
	// connection-heavy attackers (every attack still runs).
	turnGap, scale := soakTurnGap, 1
	if raceEnabled {
		turnGap, scale = 3*soakTurnGap, 2
	}
	ctx, cancel := context.WithCancel(context.Background()) // the attacks' (and the soak's) end
	defer cancel()
	soakEnd := time.Now().Add(soakDuration())
	st := newSoakStats()
	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	run(func() { attackAmplify(ctx, u, bigChat, st) })
	run(func() { attackSegments(ctx, u, st) })
	run(func() { attackSegments(ctx, u, st) })
	run(func() { attackRejected(ctx, u, chat, bigChat, st) })
	for range 6 {
		run(func() { attackNeverRead(ctx, u, chat, bigChat, st) })
	}
	for range 20 / scale {
		run(func() { attackLoris(ctx, u, 0, st) })
	}
	for range 4 {
		run(func() { attackLoris(ctx, u, 1, st) })
	}
	for range 12 / scale {
		run(func() { attackLoris(ctx, u, 2, st) })
	}
	for i := range 2 / scale {
		run(func() { attackFuzz(ctx, u, uint64(i), st) })
	}
	run(func() { attackRebind(ctx, u, st) })
	// Issue 24: a hostile terminal stream, diff and schema, and a
	// resourceRead flood.
	run(func() { attackTerminal(ctx, u, st) })
	run(func() { attackDiff(ctx, u, st) })
	run(func() { attackSchema(ctx, u, st) })
	for range 8 / scale {
		run(func() { attackReadFlood(ctx, u, bigChat, st) })
	}

	// The well-behaved client: one turn after another until the end.
	var peakRSS int64
	sampler := time.NewTicker(500 * time.Millisecond)
	defer sampler.Stop()
	turns, last, worst := 0, time.Now(), time.Duration(0)
	for seq := uint64(1); time.Now().Before(soakEnd) || turns < soakMinTurns; seq++ {
		t0 := time.Now()
		id := fmt.Sprintf("t%d", seq)
		good.sendMessage(chat, id, "hello", seq)
		waitLong(t, good, turnGap, func(m wire) bool {
			return m.Method == "action" && strings.Contains(string(m.Params), `"chat/turnComplete"`) &&
				strings.Contains(string(m.Params), `"`+id+`"`)
		})
		turns++
		worst = max(worst, time.Since(t0))
		if gap := time.Since(last); gap > turnGap {
			t.Errorf("no turn completed for %v", gap)
		}
		last = time.Now()
		select {
		case <-sampler.C:
			peakRSS = max(peakRSS, procStatusKB(pid, "VmRSS"))
		default:
		}
		pause(ctx, 100*time.Millisecond)
	}
	cancel()
	wg.Wait()
	hwm := procStatusKB(pid, "VmHWM") << 10
	budget := int64(soakRSSBudget)
	if raceEnabled {
		budget *= 3
	}
	t.Logf("soak %v: %d turns (slowest %v), peak RSS %d MiB (VmHWM), budget %d MiB; attacks: %s",
		soakDuration(), turns, worst.Round(time.Millisecond), hwm>>20, budget>>20, st.summary())
	if hwm <= 0 || hwm > budget {
		t.Errorf("host peak RSS %d MiB exceeds the %d MiB budget", hwm>>20, budget>>20)
	}
	for _, v := range st.violations {
		t.Error(v)
	}
	good.call("ping", map[string]any{"channel": "ahp-root://"})

	t0 := time.Now()
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.wait() }()
	// Under -race a 1 GB heap takes several seconds to unwind; without it the
	// host stops in well under a second (see docs/LIMITS.md).
	stopBudget := 10 * time.Second
	if raceEnabled {
		stopBudget = 30 * time.Second
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(stopBudget):
		t.Fatalf("serve did not stop within %v of SIGTERM", stopBudget)
	}
	t.Logf("SIGTERM to exit: %v", time.Since(t0).Round(time.Millisecond))
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("panic in the host log:\n%s", stderr.String())
	}
}
