//go:build linux

package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// A hostile agent reads a FIFO of its directory thousands of times at
// once: every read is refused at once (no OS thread waits in open), and
// the host survives a thread limit far below the reads' number.
func TestFIFOReadsDoNotExhaustThreads(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "fifo")
	prev := debug.SetMaxThreads(runtime.NumCPU() + 300)
	defer debug.SetMaxThreads(prev)
	turn := e.run(e.c, chat, "t1", "fifo 2000")
	if md := markdown(turn); md != "fifo: 0 answered, 2000 failed" {
		t.Fatalf("fifo reads: %q %q", md, errText(turn))
	}
	if turn := e.run(e.c, chat, "t2", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("after the fifo reads: %q %q", markdown(turn), errText(turn))
	}
}

// An agent that stops reading its stdin while reading a big file many
// times at once gets at most the answer queue's worth of answers; the
// others are refused before the file is read.
func TestReadFloodBoundedQueue(t *testing.T) {
	const size, reads = 1 << 20, 40
	e := newEnv(t, opts{maxBytes: 2 << 20}) // a 4 MiB queue: 4 answers
	if err := os.WriteFile(filepath.Join(e.dir, "big.txt"), []byte(strings.Repeat("x", size)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "flood")
	e.prompt(e.c, chat, "t1", fmt.Sprintf("readflood %d big.txt", reads))
	max := e.b.limits.maxQueue
	e.eventually("every read answered or refused", func() bool {
		q := e.b.limits.queuedBytes()
		if q > max {
			t.Fatalf("%d answer bytes queued, over the %d bound", q, max)
		}
		return strings.Count(e.logs.String(), "the answer queue is full")+int(q/size) == reads
	})
	if err := os.WriteFile(filepath.Join(e.dir, "unstall"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "t1")
	var ok, refused int
	if _, err := fmt.Sscanf(markdown(turn), "ok %d refused %d", &ok, &refused); err != nil {
		t.Fatalf("answer %q %q", markdown(turn), errText(turn))
	}
	if ok < 1 || int64(ok*size) > max || ok+refused != reads {
		t.Fatalf("ok %d refused %d: want 1..%d answered", ok, refused, max/size)
	}
	if q := e.b.limits.queuedBytes(); q != 0 {
		t.Fatalf("%d bytes still reserved after the answers were sent", q)
	}
}

// A refused read of a file over the limit reads nothing of it.
func TestOversizeReadReadsNothing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 20<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readBeneath(dir, "big", 16<<20, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("a refused read allocated %d bytes", grew)
	}
}

// A symbolic link swapped for a parent directory between the check and
// the write never lets a write out of the working directory.
func TestWriteRaceCannotEscape(t *testing.T) {
	e := newEnv(t, opts{})
	outside := t.TempDir()
	sub := filepath.Join(e.dir, "sub")
	_, chat := e.newSession(e.c, "race")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the swapper: sub is a directory, then a link out
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = os.RemoveAll(sub)
			_ = os.Mkdir(sub, 0o755)
			runtime.Gosched()
			_ = os.RemoveAll(sub)
			_ = os.Symlink(outside, sub)
			runtime.Gosched()
		}
	}()
	turn := e.run(e.c, chat, "t1", "race sub/f.txt 3000")
	close(stop)
	wg.Wait()
	if markdown(turn) != "raced" {
		t.Fatalf("answer %q %q", markdown(turn), errText(turn))
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Fatalf("%d writes escaped the working directory: %v", len(ents), ents)
	}
}

// An agent that exits while a child of it (in a session of its own) holds
// its stderr is reaped at once: the turn ends, and the next one starts a
// new agent instead of writing to the dead one's stdin.
func TestAgentExitWhileAChildHoldsStderr(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "daemon")
	start := time.Now()
	turn := e.run(e.c, chat, "t1", "daemon")
	pid, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(markdown(turn)), "child pid "))
	if err != nil {
		t.Fatalf("answer %q %q", markdown(turn), errText(turn))
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if turn.State != ahpwire.TurnError {
		t.Fatalf("state %q", turn.State)
	}
	for i, p := range []string{"text", "text"} {
		_, chat := e.newSession(e.c, fmt.Sprintf("after-%d", i))
		if turn := e.run(e.c, chat, "a"+strconv.Itoa(i), p); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
			t.Fatalf("after the exit: %q %q", markdown(turn), errText(turn))
		}
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("recovery took %v", d)
	}
}

// termURIs returns the terminal channels of a turn's tool calls.
func termURIs(turn ahpwire.Turn) []string {
	var out []string
	for _, tc := range toolCalls(turn.ResponseParts) {
		for _, c := range tc.Content {
			if c.Type == ahpwire.ContentTerminal {
				out = append(out, c.Resource)
			}
		}
	}
	return out
}

// Finished terminals' output is bounded host-wide: the oldest exited
// terminals' output is dropped (their channels say so), the newest kept.
func TestFinishedTerminalsOutputBounded(t *testing.T) {
	const retain = 1 << 20
	e := newEnv(t, opts{retain: retain})
	_, chat := e.newSession(e.c, "terms")
	turn := e.run(e.c, chat, "t1", "terms 8 256")
	if md := markdown(turn); md != "terms: ok 8 failed 0" {
		t.Fatalf("answer %q %q", md, errText(turn))
	}
	uris := termURIs(turn)
	if len(uris) != 8 {
		t.Fatalf("terminals %v", uris)
	}
	total := 0
	for i, uri := range uris {
		snap, err := e.c.c.Subscribe(e.ctx, uri, nil)
		if err != nil {
			t.Fatal(err)
		}
		var st ahpwire.TerminalState
		if err := json.Unmarshal(snap.State, &st); err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, p := range st.Content {
			text.WriteString(p.Text())
		}
		total += text.Len()
		switch {
		case i == 0 && !strings.Contains(text.String(), "[output dropped: the host keeps"):
			t.Fatalf("the oldest terminal kept its output (%d bytes)", text.Len())
		case i == len(uris)-1 && !strings.Contains(text.String(), "end-of-tt-7"):
			t.Fatalf("the newest terminal lost its output: %.200q", text.String())
		}
	}
	if total > retain+8*1024 {
		t.Fatalf("%d bytes of finished terminals kept, bound %d", total, retain)
	}
}

// A session makes at most maxSessionTerminals terminals in all.
func TestSessionTerminalsBounded(t *testing.T) {
	prev := maxSessionTerminals
	maxSessionTerminals = 3
	defer func() { maxSessionTerminals = prev }()
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "many")
	if md := markdown(e.run(e.c, chat, "t1", "terms 5 1")); md != "terms: ok 3 failed 2" {
		t.Fatalf("answer %q", md)
	}
}

// An agent flooding its stderr is logged at a bounded rate, with a note
// of what was not logged; the crash report still has its last lines.
func TestStderrFloodRateLimited(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race the host reads stderr slower than the logging rate: nothing to limit (TestStderrLimiter covers the bounds)")
	}
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "stderr")
	if md := markdown(e.run(e.c, chat, "t1", "stderrflood 16")); md != "flooded stderr" {
		t.Fatalf("answer %q", md)
	}
	e.eventually("the note of lines not logged", func() bool {
		return strings.Contains(e.logs.String(), "agent stderr lines not logged")
	})
	if n := strings.Count(e.logs.String(), "msg=\"agent stderr\""); n > 2000 || n < stderrBurst {
		t.Fatalf("%d of %d stderr lines logged", n, 16<<10)
	}
}

// A client that numbers turns per chat (t1 in every session) gets every
// turn answered: turn ids are scoped by chat.
func TestTurnIDsPerChat(t *testing.T) {
	e := newEnv(t, opts{})
	for _, id := range []string{"one", "two"} {
		_, chat := e.newSession(e.c, id)
		if turn := e.run(e.c, chat, "t1", "text"); markdown(turn) != "Hello from the fake agent." {
			t.Fatalf("chat %s turn t1: %q %q", id, markdown(turn), errText(turn))
		}
	}
}

// A host killed with SIGKILL leaves nothing of its agent behind: the
// agent dies with it (parent-death signal) and so does what the agent
// started in its process group (the group's sentinel).
func TestAgentChildrenDieWithKilledHost(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	u, cmd := serveAgents(t, dir, "fake")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := &env{t: t, url: u, dir: dir, ctx: ctx, cancel: cancel, logs: &logBuf{}}
	k := e.dial()
	chat := e.sessionOf(k, "fake", "kids")
	e.prompt(k, chat, "t1", "children")
	if ok, err := k.turnEnded(ctx, chat, "t1"); !ok || err != nil {
		t.Fatalf("turn: %v %v", ok, err)
	}
	md := markdown(e.chatState(k, chat).Turns[0])
	pid, err := strconv.Atoi(strings.TrimPrefix(md, "child pid "))
	if err != nil {
		t.Fatalf("answer %q", md)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if !alive(pid) {
		t.Fatal("the agent's child is not running")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's child %d outlived the killed host", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The stderr limiter: a burst, then the rate; the byte budget ends
// logging for good; what is not logged is counted.
func TestStderrLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := newStderrLimiter(now)
	logged := 0
	for i := 0; i < 1000; i++ { // 1000 lines in 1 s
		if l.allow(now.Add(time.Duration(i)*time.Millisecond), 100) {
			logged++
		}
	}
	if want := stderrBurst + stderrLinesPerSecond; logged < stderrBurst || logged > want {
		t.Fatalf("%d of 1000 lines in 1 s logged, want %d..%d", logged, stderrBurst, want)
	}
	if l.dropped != 1000-logged {
		t.Fatalf("dropped %d, want %d", l.dropped, 1000-logged)
	}
	big := newStderrLimiter(now)
	total := 0
	for i := 0; i < 100000; i++ { // slow enough for the rate: the bytes bound
		if big.allow(now.Add(time.Duration(i)*time.Second), maxStderrLine) {
			total += maxStderrLine
		}
	}
	if total > maxStderrLogBytes {
		t.Fatalf("%d bytes logged, over %d", total, maxStderrLogBytes)
	}
}

// An agent that stops reading its stdin while the host answers it is
// taken for dead after the bridge's StdinTimeout and killed: its turn ends, the
// next turn starts a new agent (nothing stays queued to it for ever).
func TestAgentNotReadingStdinIsStopped(t *testing.T) {
	// The bridge's own setting (a package variable set here raced with
	// the agent's writes of a host that outlived the test).
	e := newEnv(t, opts{stdinTimeout: 500 * time.Millisecond})
	if err := os.WriteFile(filepath.Join(e.dir, "big.txt"), []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "stall")
	start := time.Now()
	if turn := e.run(e.c, chat, "t1", "readflood 3 big.txt"); turn.State != ahpwire.TurnError {
		t.Fatalf("the stalled agent's turn: %q %q", turn.State, markdown(turn))
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the stalled agent was stopped after %v", d)
	}
	if !strings.Contains(e.logs.String(), "has not read its input for too long") {
		t.Fatal("no log line says why the agent was stopped")
	}
	if turn := e.run(e.c, chat, "t2", "text"); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
		t.Fatalf("after the stall: %q %q", markdown(turn), errText(turn))
	}
}
