//go:build unix

package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/mockanthropic"
)

// BenchmarkBridgeChunks feeds a model-like reply — real markdown cut into
// 20–60-byte agent_message_chunk notifications, as the mock Anthropic API
// and Claude Code's adapter send them — through the bridge's read path
// (the agent's stdout pipe, the SDK connection, the client, the turn's
// mapping) into a turn whose Emit only collects the text. One op is one
// whole reply; the metrics are per chunk: the process's CPU time (user +
// system, so the pipe's reads count), allocations, and per 1000 chunks
// the AHP actions emitted and the process's context switches. The lines come from another process, one write
// each, as from an agent: flood writes them as fast as the pipe takes
// them; paced writes one every 100 µs, about the pace of a fast model
// (Claude Code's adapter against the mock writes one every ~200 µs), so
// that few arrive together.
func BenchmarkBridgeChunks(b *testing.B) {
	for _, c := range []struct {
		name  string
		bytes int
		pace  time.Duration
	}{
		{"flood-1MB", 1 << 20, 0},
		{"paced-100KB", 100 << 10, 100 * time.Microsecond},
	} {
		b.Run(c.name, func(b *testing.B) {
			text := mockanthropic.Markdown(c.bytes)
			chunks := mockanthropic.Chunk(text, 1)
			lines := filepath.Join(b.TempDir(), "lines")
			if err := os.WriteFile(lines, bytes.Join(chunkLines("sess-1", chunks), nil), 0o600); err != nil {
				b.Fatal(err)
			}
			br, tm := benchBridge(b, "sess-1")
			var cpu time.Duration
			var mallocs uint64
			var emits int
			var switches int64
			b.ResetTimer()
			for range b.N {
				cs0 := ctxSwitches()
				cpu0, m0 := cpuTime(), mallocCount()
				got, n := streamThrough(b, br, tm, lines, len(text), c.pace)
				cpu += cpuTime() - cpu0
				mallocs += mallocCount() - m0
				switches += ctxSwitches() - cs0
				emits += n
				if got != text {
					b.Fatalf("the turn got %d bytes, not the %d streamed (or not the same)", len(got), len(text))
				}
			}
			total := float64(b.N * len(chunks))
			b.ReportMetric(float64(cpu.Nanoseconds())/total, "cpu-ns/chunk")
			b.ReportMetric(float64(mallocs)/total, "allocs/chunk")
			b.ReportMetric(float64(emits)*1000/total, "actions/1000chunks")
			b.ReportMetric(float64(switches)*1000/total, "ctxsw/1000chunks")
		})
	}
}

// chunkLines encodes chunks as the session/update lines of an agent
// (member order and escaping as Claude Code's adapter writes them).
func chunkLines(sessionID string, chunks []string) [][]byte {
	out := make([][]byte, len(chunks))
	for i, c := range chunks {
		var lit bytes.Buffer
		enc := json.NewEncoder(&lit)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(c)
		out[i] = []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sessionID +
			`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` +
			strings.TrimSuffix(lit.String(), "\n") + "}}}}\n")
	}
	return out
}

// benchTurn collects what a turn emits.
type benchTurn struct {
	mu    sync.Mutex
	text  strings.Builder
	emits int
	want  int
	done  chan struct{}
}

func (t *benchTurn) emit(a ahpwire.Action) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emits++
	switch a := a.(type) {
	case *ahpwire.ChatDelta:
		t.text.WriteString(a.Content)
	case *ahpwire.ChatResponsePart:
		t.text.WriteString(a.Part.Content)
	}
	if t.text.Len() >= t.want && t.done != nil {
		close(t.done)
		t.done = nil
	}
}

// benchBridge is a bridge with one session (ACP id acpID) and no process.
func benchBridge(b *testing.B, acpID string) (*Bridge, *benchTurn) {
	b.Helper()
	br, err := New(Config{Name: "bench", Command: "none", Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	s := &session{uri: "ahp-session:/bench", dir: br.cfg.Dir, acpID: acpID, applied: map[string]string{},
		files: map[string]*changedFile{}, terms: map[string]*terminal{}}
	br.sessions[s.uri], br.byACP[acpID] = s, s
	return br, &benchTurn{}
}

// streamThrough runs one turn: a writer process (this test binary again,
// benchWriter) writes lines to its stdout, which the bridge reads as an
// agent's (one write per line, pace apart); it waits until the turn got
// want bytes and returns the text and the actions.
func streamThrough(b *testing.B, br *Bridge, bt *benchTurn, lines string, want int, pace time.Duration) (string, int) {
	b.Helper()
	bt.mu.Lock()
	bt.text.Reset()
	bt.emits, bt.want, bt.done = 0, want, make(chan struct{})
	done := bt.done
	bt.mu.Unlock()
	s := br.sessions["ahp-session:/bench"]
	tm := &turnMap{b: br, s: s, t: agent.Turn{TurnID: "t1", Emit: bt.emit}, tools: map[string]*toolMap{},
		waiters: map[string]chan *ahpwire.ChatToolCallConfirmed{}, toolSeen: make(chan struct{})}
	s.setTurn(tm)
	defer s.clearTurn(tm)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ACPBENCH_LINES="+lines, "ACPBENCH_PACE="+pace.String())
	stdout, stop, closeStdout, err := agentStdoutPipe(cmd)
	if err != nil {
		b.Fatal(err)
	}

	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	gate := make(chan struct{})
	conn, _ := br.connect(io.Discard, stdout, gate, nil)
	conn.SetLogger(br.sdkLogger())
	close(gate)
	select {
	case <-done:
	case <-time.After(time.Minute):
		b.Fatal("the stream did not arrive within a minute")
	}
	_ = cmd.Wait()
	stop()
	<-conn.Done()
	closeStdout()
	bt.mu.Lock()
	defer bt.mu.Unlock()
	return bt.text.String(), bt.emits
}

func init() { helperMain = benchWriter }

// benchWriter is the writer process of streamThrough: it writes the lines
// of the file $ACPBENCH_LINES to stdout, one write per line, a line every
// $ACPBENCH_PACE; it reports false in any other process.
func benchWriter() bool {
	path := os.Getenv("ACPBENCH_LINES")
	if path == "" {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pace, _ := time.ParseDuration(os.Getenv("ACPBENCH_PACE"))
	next := time.Now()
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n') + 1
		if n == 0 {
			n = len(data)
		}
		if pace > 0 {
			next = next.Add(pace)
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
		}
		if _, err := os.Stdout.Write(data[:n]); err != nil {
			os.Exit(1)
		}
		data = data[n:]
	}
	return true
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mallocCount is the process's allocations so far.
func mallocCount() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// ctxSwitches is the process's context switches so far (its threads'
// wake-ups, mostly).
func ctxSwitches() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Nvcsw + ru.Nivcsw
}
