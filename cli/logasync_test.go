package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// stallWriter blocks every Write until released, recording what it got.
type stallWriter struct {
	entered chan struct{} // one send per Write that starts
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func newStallWriter() *stallWriter {
	return &stallWriter{entered: make(chan struct{}, 1024), release: make(chan struct{})}
}

func (w *stallWriter) Write(p []byte) (int, error) {
	w.entered <- struct{}{}
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *stallWriter) lines(t *testing.T) []map[string]any {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(w.buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// waitGoroutines polls until the goroutine count is back to at most n.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			t.Fatalf("goroutine leak: %d running, want ≤ %d", runtime.NumGoroutine(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAsyncLogDoesNotBlockOnStalledWriterAndDrains(t *testing.T) {
	before := runtime.NumGoroutine()
	w := newStallWriter()
	a := newAsyncLog(w, 4)
	log := a.logger("tok-9")
	log.Info("first")
	<-w.entered // the writer is now stuck inside Write("first")

	// 20 more records: 4 fit the queue, 16 are dropped (6 INFO, 10 ERROR).
	// None of the calls may wait for the stalled writer.
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		for i := range 20 {
			if i < 10 {
				log.Info("line", "i", i, "url", "ws://h/?tkn=tok-9")
			} else {
				log.Error("line", "i", i)
			}
		}
	}()
	select {
	case <-logged:
	case <-time.After(5 * time.Second):
		close(w.release)
		t.Fatal("logging blocked on a stalled writer")
	}

	close(w.release) // unstall; Close must drain the queue and report drops
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	// The drop report follows the surviving lines once the writer caught
	// up (or earlier under a long backlog): find it, then check the rest.
	var lines []map[string]any
	var rep map[string]any
	for _, l := range w.lines(t) {
		if _, ok := l["dropped"]; ok && rep == nil {
			rep = l
			continue
		}
		lines = append(lines, l)
	}
	if rep == nil || rep["level"] != "ERROR" || rep["dropped"] != float64(16) || rep["droppedErrors"] != float64(10) {
		t.Fatalf("drop report %v, want ERROR with dropped 16, droppedErrors 10", rep)
	}
	if len(lines) != 1+4 {
		t.Fatalf("got %d lines, want first + 4 queued: %v", len(lines), lines)
	}
	if lines[0]["msg"] != "first" {
		t.Fatalf("first line %v", lines[0])
	}
	for i, l := range lines[1:] {
		if l["msg"] != "line" || l["i"] != float64(i) || l["url"] != "ws://h/?tkn=***" {
			t.Fatalf("queued line %d = %v (want in order, masked)", i, l)
		}
	}
	waitGoroutines(t, before)

	// After Close, logging still works, synchronously.
	log.Warn("late")
	if l := w.lines(t); l[len(l)-1]["msg"] != "late" {
		t.Fatalf("line after Close lost: %v", l[len(l)-1])
	}
}

func TestAsyncLogWithoutDropsWritesNoReport(t *testing.T) {
	before := runtime.NumGoroutine()
	var buf bytes.Buffer
	a := newAsyncLog(&buf, 64)
	log := a.logger().With("component", "tui")
	for i := range 10 {
		log.Info("x", "i", i)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if n := strings.Count(s, "\n"); n != 10 || strings.Contains(s, "dropped") || !strings.Contains(s, `"component":"tui"`) {
		t.Fatalf("want 10 lines with attrs and no drop report:\n%s", s)
	}
	waitGoroutines(t, before)
}

func TestOpenLogAsyncFile(t *testing.T) {
	before := runtime.NumGoroutine()
	path := t.TempDir() + "/x/ahptui.log"
	log, lf, err := openLog(path, "s3cr3t")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("hello s3cr3t")
	lf.logger("other-tok").Error("second other-tok")
	if err := lf.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b, `"msg":"hello ***"`) || !strings.Contains(b, `"msg":"second ***"`) || strings.Contains(b, "s3cr3t") {
		t.Fatalf("log file:\n%s", b)
	}
	waitGoroutines(t, before)
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

// Every record is accounted for when loggers race with Close: written
// (queued, or synchronously after Close) or counted in a drop report.
func TestAsyncLogConcurrentCloseAccountsForEveryLine(t *testing.T) {
	before := runtime.NumGoroutine()
	var buf bytes.Buffer
	a := newAsyncLog(&buf, 8)
	log := a.logger()
	const workers, each = 8, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				log.Info("l", "w", w, "i", i)
			}
		}()
	}
	time.Sleep(time.Millisecond)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	written, dropped := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if d, ok := m["dropped"].(float64); ok {
			dropped += int(d)
		} else {
			written++
		}
	}
	if written+dropped != workers*each {
		t.Fatalf("written %d + dropped %d != %d logged", written, dropped, workers*each)
	}
	waitGoroutines(t, before)
}
