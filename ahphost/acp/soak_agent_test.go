//go:build linux

package acp

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
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// The hostile-agent soak (issue 32): a real `ahptui serve` with two ACP
// agents, a hostile one flooding terminals and stderr without pause and a
// well-behaved one that three clients prompt turn after turn (10 a second
// each, 20 turns a session, then disposed). The host's RSS stays within
// soakRSS and every good turn completes with its reply.
// 20 s by default (10 s with -short); the long run is
//
//	AHPTUI_SOAK=10m go test -run TestSoakHostileAgent -timeout 20m ./ahphost/acp
const soakRSS = 512 << 20

func soakFor() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("AHPTUI_SOAK")); err == nil && d > 0 {
		return d
	}
	if testing.Short() {
		return 10 * time.Second
	}
	return 20 * time.Second
}

// rssKB reads a /proc/PID/status field in KiB (0 when unknown).
func rssKB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// serveAgents starts `ahptui serve` with the named fake agents and returns
// its URL and process.
func serveAgents(t *testing.T, dir string, names ...string) (string, *exec.Cmd) {
	t.Helper()
	bin := filepath.Join(filepath.Dir(fakeBin), "ahptui")
	if _, err := os.Stat(bin); err != nil {
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/ahptui/ahptui").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	args := []string{"serve", "--without-connection-token", "--ephemeral", "--dir", dir, "--log-level", "warn"}
	for _, n := range names {
		args = append(args, "--agent", n+"="+fakeBin)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	return strings.TrimSpace(line), cmd
}

// sessionOf creates a session of provider and returns its default chat.
func (e *env) sessionOf(k *client2, provider, id string) string {
	e.t.Helper()
	session := "ahp-session:/" + id
	if err := k.c.CreateSession(e.ctx, ahpwire.CreateSessionParams{Channel: session, Provider: provider,
		WorkingDirectories: []string{fileURI(e.dir)}}); err != nil {
		e.t.Fatal(err)
	}
	return e.open(k, session)
}

// turnEnded waits for the end of turn id on chat among k's envelopes and
// reports whether it completed.
func (k *client2) turnEnded(ctx context.Context, chat, id string) (bool, error) {
	for seen := 0; ; {
		k.mu.Lock()
		envs := k.envs[seen:]
		seen = len(k.envs)
		k.mu.Unlock()
		for _, en := range envs {
			if en.Channel != chat {
				continue
			}
			switch a := en.Action.(type) {
			case *ahpwire.ChatTurnComplete:
				if a.TurnID == id {
					return true, nil
				}
			case *ahpwire.ChatError:
				if a.TurnID == id {
					return false, nil
				}
			case *ahpwire.ChatTurnCancelled:
				if a.TurnID == id {
					return false, nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// forget drops the envelopes k recorded.
func (k *client2) forget() {
	k.mu.Lock()
	k.envs = nil
	k.mu.Unlock()
}

func TestSoakHostileAgent(t *testing.T) {
	d := soakFor()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	u, cmd := serveAgents(t, dir, "evil", "good")
	pid := cmd.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), d+2*time.Minute)
	defer cancel()
	e := &env{t: t, url: u, dir: dir, ctx: ctx, cancel: cancel, logs: &logBuf{}}
	run, stop := context.WithTimeout(ctx, d)
	defer stop()

	var wg sync.WaitGroup
	var evilTurns, goodTurns, lost atomic.Int64
	wg.Add(1)
	go func() { // the hostile agent: terminals and stderr, without pause
		defer wg.Done()
		k := e.dial()
		for n := 0; run.Err() == nil; n++ {
			chat := e.sessionOf(k, "evil", fmt.Sprintf("evil-%d", n))
			for i := 0; i < 10 && run.Err() == nil; i++ {
				id := fmt.Sprintf("e%d-%d", n, i)
				text := "terms 16 512"
				if i%2 == 1 {
					text = "stderrflood 8"
				}
				e.prompt(k, chat, id, text)
				if _, err := k.turnEnded(ctx, chat, id); err != nil {
					return
				}
				evilTurns.Add(1)
			}
			k.forget()
		}
	}()
	for c := 0; c < 3; c++ {
		wg.Add(1)
		go func() { // a well-behaved client of the good agent
			defer wg.Done()
			k := e.dial()
			for n := 0; run.Err() == nil; n++ {
				chat := e.sessionOf(k, "good", fmt.Sprintf("good-%d-%d", c, n))
				var ids []string
				for i := 0; i < 20 && run.Err() == nil; i++ {
					id := fmt.Sprintf("g%d-%d-%d", c, n, i)
					e.prompt(k, chat, id, "text")
					ok, err := k.turnEnded(ctx, chat, id)
					if err != nil {
						lost.Add(1)
						return
					}
					if !ok {
						lost.Add(1)
					}
					ids = append(ids, id)
					goodTurns.Add(1)
					select { // a person's pace, roughly
					case <-run.Done():
					case <-time.After(100 * time.Millisecond):
					}
				}
				st := e.chatState(k, chat) // nothing lost: every reply is there
				got := map[string]string{}
				for _, turn := range st.Turns {
					got[turn.ID] = markdown(turn)
				}
				for _, id := range ids {
					if got[id] != "Hello from the fake agent." {
						lost.Add(1)
						t.Errorf("turn %s: %q", id, got[id])
					}
				}
				k.forget()
				_ = k.c.DisposeSession(ctx, "ahp-session:/"+fmt.Sprintf("good-%d-%d", c, n)) // done with it
			}
		}()
	}
	var first, last, peak int64
	samples := 0
	for tick := time.NewTicker(time.Second); run.Err() == nil; {
		select {
		case <-tick.C:
			rss := rssKB(pid, "VmRSS") << 10
			if samples == 5 {
				first = rss
			}
			last, peak = rss, max(peak, rss)
			samples++
		case <-run.Done():
		}
	}
	wg.Wait()
	hwm := rssKB(pid, "VmHWM") << 10
	t.Logf("soak %v: %d good turns, %d hostile turns (16 terminals × 512 KiB or 8 MiB of stderr each), lost %d; host RSS after 5 s %d MiB, at the end %d MiB, peak %d MiB (VmHWM %d MiB)",
		d, goodTurns.Load(), evilTurns.Load(), lost.Load(), first>>20, last>>20, peak>>20, hwm>>20)
	if hwm > soakRSS {
		t.Errorf("host peak RSS %d MiB over %d MiB", hwm>>20, soakRSS>>20)
	}
	if lost.Load() > 0 || goodTurns.Load() < 3 || evilTurns.Load() < 1 {
		t.Errorf("good turns %d (lost %d), hostile turns %d", goodTurns.Load(), lost.Load(), evilTurns.Load())
	}
}
