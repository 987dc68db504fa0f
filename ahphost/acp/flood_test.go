//go:build linux

package acp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// floodEnv makes the test binary play an agent that floods the host
// with requests at its first prompt and never reads its stdin again
// (floodAgent); with floodReadsEnv set too, it reads the answers once the
// file "unstall" is in its directory (floodReading).
const (
	floodEnv      = "ACP_TEST_FLOOD_REQUESTS"
	floodReadsEnv = "ACP_TEST_FLOOD_READS"
)

func init() {
	prev := helperMain
	helperMain = func() bool {
		n, err := strconv.Atoi(os.Getenv(floodEnv))
		if err != nil {
			return prev != nil && prev()
		}
		floodAgent(n)
		return true
	}
}

// floodAgent answers initialize and session/new; at session/prompt it
// announces a tool call and writes n requests as fast as the pipe takes
// them — file reads, permission requests, terminal output and an unknown
// extension method in turn — without reading another byte of its stdin,
// then creates the file "flooded" and waits to be killed.
func floodAgent(n int) {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	sessions := 0
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":1,"agentCapabilities":{}}}`+"\n", m.ID)
		case "session/new":
			sessions++
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"flood-%d"}}`+"\n", m.ID, sessions)
		case "session/prompt":
			if os.Getenv(floodReadsEnv) == "" {
				flood(out, m.Params.SessionID, n, false)
				time.Sleep(10 * time.Minute)
				os.Exit(0)
			}
			floodReading(in, out, m.ID, m.Params.SessionID, n)
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
		}
		if out.Flush() != nil {
			os.Exit(1)
		}
	}
}

// floodReading floods n requests as floodAgent does (no permission
// requests: nobody answers them) while another goroutine reads the
// answers once the file "unstall" exists; then it says how they were
// answered and ends the prompt.
func floodReading(in *bufio.Reader, out *bufio.Writer, promptID json.RawMessage, sid string, n int) {
	dir, _ := os.Getwd()
	report := make(chan string, 1)
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "unstall")); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		seen := make([]bool, n)
		ok, busy, failed, twice := 0, 0, 0, 0
		for got := 0; got < n; {
			line, err := in.ReadBytes('\n')
			if err != nil {
				os.Exit(1)
			}
			var a struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Data json.RawMessage `json:"data"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &a) != nil || len(a.ID) == 0 {
				continue
			}
			i, err := strconv.Atoi(strings.TrimPrefix(strings.Trim(string(a.ID), `"`), "x-"))
			if err != nil || i < 0 || i >= n {
				continue
			}
			if seen[i] {
				twice++
			}
			seen[i] = true
			got++
			switch {
			case a.Error == nil:
				ok++
			case strings.Contains(string(a.Error.Data), "too many requests in flight"):
				busy++
			default:
				failed++
			}
		}
		report <- fmt.Sprintf("answered %d: ok %d busy %d failed %d twice %d", n, ok, busy, failed, twice)
	}()
	flood(out, sid, n, true)
	text, _ := json.Marshal(<-report)
	fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%s}}}}`+"\n", sid, text)
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`+"\n", promptID)
}

// flood writes n requests of session sid (see floodAgent), no permission
// requests when answered is set.
func flood(out *bufio.Writer, sid string, n int, answered bool) {
	dir, _ := os.Getwd()
	small, _ := json.Marshal(filepath.Join(dir, "small.txt"))
	fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"tool_call","toolCallId":"flood-tool","title":"flood","kind":"other","status":"pending"}}}`+"\n", sid)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"sessionId":%q,"path":%s}}`+"\n", i, sid, small)
		case 1:
			if answered {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"sessionId":%q,"path":%s}}`+"\n", i, sid, small)
				continue
			}
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":%q,"toolCall":{"toolCallId":"flood-tool"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}]}}`+"\n", i, sid)
		case 2:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%d,"method":"terminal/output","params":{"sessionId":%q,"terminalId":"none"}}`+"\n", i, sid)
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":"x-%d","method":"_flood/ext","params":{}}`+"\n", i)
		}
	}
	if out.Flush() != nil {
		os.Exit(1)
	}
	if !answered {
		_ = os.WriteFile(filepath.Join(dir, "flooded"), nil, 0o644)
	}
}

// usage is what the host process holds at one moment.
type usage struct {
	goroutines int
	mem        uint64 // heap in use plus goroutine stacks
}

func usageNow() usage {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return usage{runtime.NumGoroutine(), ms.HeapInuse + ms.StackInuse}
}

// peakSampler records the highest usage seen until stopped.
type peakSampler struct {
	mu   sync.Mutex
	peak usage
	stop chan struct{}
	once sync.Once
	done chan struct{}
}

// samplePeaks samples the usage every 10 ms until end (or t's end).
func samplePeaks(t *testing.T) *peakSampler {
	p := &peakSampler{peak: usageNow(), stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(func() { p.end() })
	go func() {
		defer close(p.done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
			u := usageNow()
			p.mu.Lock()
			p.peak.goroutines = max(p.peak.goroutines, u.goroutines)
			p.peak.mem = max(p.peak.mem, u.mem)
			p.mu.Unlock()
		}
	}()
	return p
}

func (p *peakSampler) get() usage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

func (p *peakSampler) end() usage {
	p.once.Do(func() { close(p.stop) })
	<-p.done
	return p.get()
}

// floodRequests is how many requests the flooding agent sends: far more
// than the host keeps unanswered ($ACPFLOOD_REQUESTS when set, for the
// measurements of docs/BENCHMARKS.md).
func floodRequests() int {
	if n, err := strconv.Atoi(os.Getenv("ACPFLOOD_REQUESTS")); err == nil && n > 0 {
		return n
	}
	return 20000
}

// An agent that floods the host with requests and never reads its stdin
// holds at most a bounded number of host goroutines and bytes: the host
// reads no more of its requests than it can keep unanswered, stops the
// agent after StdinTimeout with a turn error and a log line saying why,
// and serves another agent's session normally meanwhile; nothing of the
// flood stays behind.
func TestRequestFloodBounded(t *testing.T) {
	testkit.LeakCheck(t) // (checked after the host closed)
	n := floodRequests()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, opts{more: []Config{{Name: "flood", Command: self, StdinTimeout: 3 * time.Second,
		Env: []string{floodEnv + "=" + strconv.Itoa(n)}}}})
	if err := os.WriteFile(filepath.Join(e.dir, "small.txt"), []byte("small\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, calm := e.newSession(e.c, "calm")
	if turn := e.run(e.c, calm, "c1", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("the other agent before the flood: %q %q", markdown(turn), errText(turn))
	}
	floodChat := e.sessionOf(e.c, "flood", "flood")
	runtime.GC()
	base := usageNow()
	peaks := samplePeaks(t)
	e.prompt(e.c, floodChat, "f1", "flood")
	fb := e.more[0]
	// Bounds, not timings: the host has as many goroutines as it did plus
	// the unanswered requests' and a margin for the turns' own.
	maxGoroutines := base.goroutines + maxUnanswered + 200
	const maxMem = 64 << 20
	ended := func() bool {
		for _, turn := range e.chatState(e.c, floodChat).Turns {
			if turn.ID == "f1" {
				return true
			}
		}
		return false
	}
	e.eventually("the host to hold the flood back (or read all of it)", func() bool {
		_, err := os.Stat(filepath.Join(e.dir, "flooded"))
		return err == nil || floodStalled(fb) || ended() || peaks.get().goroutines > maxGoroutines
	})
	if p := peaks.get(); p.goroutines > maxGoroutines {
		t.Fatalf("the flood piled up %d goroutines (%d before, bound %d)", p.goroutines, base.goroutines, maxGoroutines)
	}
	if turn := e.run(e.c, calm, "c2", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("the other agent during the flood: %q %q", markdown(turn), errText(turn))
	}
	turn := e.finished(e.c, floodChat, "f1")
	peak := peaks.end()
	t.Logf("flood of %d requests: goroutines %d → peak %d; heap+stacks %.1f → peak %.1f MiB",
		n, base.goroutines, peak.goroutines, mib(base.mem), mib(peak.mem))
	if peak.goroutines > maxGoroutines {
		t.Fatalf("the flood piled up %d goroutines (%d before, bound %d)", peak.goroutines, base.goroutines, maxGoroutines)
	}
	if grew := peak.mem - min(peak.mem, base.mem); grew > maxMem {
		t.Fatalf("the flood grew the heap and stacks by %.1f MiB (bound %.1f MiB)", mib(grew), mib(maxMem))
	}
	t.Logf("the turn's error: %s", errText(turn))
	if turn.State != ahpwire.TurnError || !strings.Contains(errText(turn), "without reading the answers") {
		t.Fatalf("the flooding agent's turn: %q %q", turn.State, errText(turn))
	}
	if !strings.Contains(e.logs.String(), "too many requests unanswered") {
		t.Fatalf("no log line says why the agent was held back:\n%s", e.logs.String())
	}
	if turn := e.run(e.c, calm, "c3", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("the other agent after the flood: %q %q", markdown(turn), errText(turn))
	}
}

// floodStalled reports whether b's reader waited for answers.
func floodStalled(b *Bridge) bool {
	u := pendingOf(b)
	if u == nil {
		return false
	}
	_, _, stalls := u.counts()
	return stalls > 0
}

// pendingOf is the unanswered count of b's agent process (nil: none).
func pendingOf(b *Bridge) *unanswered {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.proc == nil {
		return nil
	}
	return b.proc.pending
}

// An agent that floods requests and reads the answers (late: once the
// host held it back) gets every request answered exactly once, at most a
// bounded number of them unanswered at a time, and its turn ends as usual.
func TestRequestFloodReadingAgentServed(t *testing.T) {
	testkit.LeakCheck(t) // (checked after the host closed)
	const n = 5000
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, opts{more: []Config{{Name: "flood", Command: self, StdinTimeout: 30 * time.Second,
		Env: []string{floodEnv + "=" + strconv.Itoa(n), floodReadsEnv + "=1"}}}})
	if err := os.WriteFile(filepath.Join(e.dir, "small.txt"), []byte("small\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chat := e.sessionOf(e.c, "flood", "flood")
	runtime.GC()
	base := usageNow()
	peaks := samplePeaks(t)
	e.prompt(e.c, chat, "f1", "flood")
	e.eventually("the host to hold the flood back", func() bool { return floodStalled(e.more[0]) })
	if err := os.WriteFile(filepath.Join(e.dir, "unstall"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "f1")
	peak := peaks.end()
	var ok, busy, failed, twice int
	if _, err := fmt.Sscanf(markdown(turn), "answered 5000: ok %d busy %d failed %d twice %d", &ok, &busy, &failed, &twice); err != nil ||
		turn.State != ahpwire.TurnComplete {
		t.Fatalf("turn %q: %q %q", turn.State, markdown(turn), errText(turn))
	}
	if twice != 0 || ok+busy+failed != n || ok < n/4 {
		t.Fatalf("answers: %s", markdown(turn))
	}
	// An agent that reads its answers frees a request's count when its
	// answer is written, a moment before the SDK's goroutine that wrote it
	// ends: on a loaded machine a few hundred such goroutines are still
	// ending while new requests are read (756 against 732 seen once with
	// one limit's worth of room), so this bound allows two limits' worth.
	// Unbounded, 5000 requests would hold about 5000
	// (TestRequestFloodBounded is the test of the bound itself).
	if max := base.goroutines + 2*maxUnanswered + 200; peak.goroutines > max {
		t.Fatalf("%d goroutines (%d before, bound %d)", peak.goroutines, base.goroutines, max)
	}
	t.Logf("%s; goroutines %d → peak %d", markdown(turn), base.goroutines, peak.goroutines)
	if unanswered, b, _ := pendingOf(e.more[0]).counts(); unanswered != 0 || b != 0 {
		t.Fatalf("%d requests (%d bytes) still counted after every answer", unanswered, b)
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
