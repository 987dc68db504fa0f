package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logQueueSize is how many formatted log lines may wait for the writer.
const logQueueSize = 1024

// asyncLog moves log-file writes off the caller's goroutine, so logging
// from Bubble Tea's Update never does file I/O. Records are formatted (and
// masked) synchronously, which is CPU only, and the finished line is queued
// for one writer goroutine. When the queue is full the line is dropped and
// counted, by level; the writer reports the drops in a log line of its own
// (level ERROR when an ERROR line was lost) once it has caught up (at least
// every second under a backlog) and on Close, so nothing disappears silently. Close drains the queue.
type asyncLog struct {
	w    io.Writer
	wmu  sync.Mutex // serializes writes to w (the writer vs. writes after Close)
	ch   chan []byte
	done chan struct{}

	// mu serializes Handle, so that Write (called by the JSON handler
	// inside Handle) knows the level of the line it queues.
	mu         sync.Mutex
	level      slog.Level
	closed     bool
	dropped    int // lines lost to a full queue since the last report
	droppedErr int // of which at level ERROR or above
}

// newAsyncLog starts the writer goroutine for w with a queue of size lines.
func newAsyncLog(w io.Writer, size int) *asyncLog {
	a := &asyncLog{w: w, ch: make(chan []byte, max(1, size)), done: make(chan struct{})}
	go a.run()
	return a
}

// logger returns a JSON logger whose lines go through the queue with every
// secret (and every ?tkn= value) masked.
func (a *asyncLog) logger(secrets ...string) *slog.Logger {
	return slog.New(asyncHandler{next: maskedHandler(a, secrets...), a: a})
}

func (a *asyncLog) run() {
	defer close(a.done)
	last := time.Now()
	for line := range a.ch {
		a.write(line)
		// Report once caught up (or at least every second under a
		// backlog), so the report follows the lines that survived.
		if len(a.ch) == 0 || time.Since(last) >= time.Second {
			a.reportDrops()
			last = time.Now()
		}
	}
	a.reportDrops()
}

// reportDrops writes a line about lines dropped since the last report.
func (a *asyncLog) reportDrops() {
	a.mu.Lock()
	n, nErr := a.dropped, a.droppedErr
	a.dropped, a.droppedErr = 0, 0
	a.mu.Unlock()
	if n == 0 {
		return
	}
	level := slog.LevelWarn
	if nErr > 0 {
		level = slog.LevelError
	}
	line, _ := json.Marshal(struct {
		Time          string `json:"time"`
		Level         string `json:"level"`
		Msg           string `json:"msg"`
		Dropped       int    `json:"dropped"`
		DroppedErrors int    `json:"droppedErrors"`
	}{time.Now().Format(time.RFC3339Nano), level.String(), "log: writer fell behind, lines dropped", n, nErr})
	a.write(append(line, '\n'))
}

// write writes one line to w.
func (a *asyncLog) write(line []byte) {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	_, _ = a.w.Write(line)
}

// Write queues one formatted line without blocking (the JSON handler
// calls it once per record, under a.mu held by asyncHandler.Handle). After
// Close it writes synchronously.
func (a *asyncLog) Write(p []byte) (int, error) {
	if a.closed {
		a.wmu.Lock()
		defer a.wmu.Unlock()
		return a.w.Write(p) //nolint:wrapcheck // pass-through
	}
	select {
	case a.ch <- append([]byte(nil), p...):
	default:
		a.dropped++
		if a.level >= slog.LevelError {
			a.droppedErr++
		}
	}
	return len(p), nil
}

// Close stops queueing, waits until the writer has written every queued
// line and the drop report, and returns. It does not close the writer.
func (a *asyncLog) Close() error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.ch)
	}
	a.mu.Unlock()
	<-a.done
	return nil
}

// asyncHandler feeds records to a handler that writes into an asyncLog.
type asyncHandler struct {
	next slog.Handler
	a    *asyncLog
}

// Enabled delegates to the wrapped handler.
func (h asyncHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

// Handle formats the record into the queue; it never waits for I/O.
func (h asyncHandler) Handle(ctx context.Context, r slog.Record) error {
	h.a.mu.Lock()
	defer h.a.mu.Unlock()
	h.a.level = r.Level
	return h.next.Handle(ctx, r) //nolint:wrapcheck // pass-through
}

// WithAttrs keeps the queue.
func (h asyncHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return asyncHandler{next: h.next.WithAttrs(as), a: h.a}
}

// WithGroup keeps the queue.
func (h asyncHandler) WithGroup(name string) slog.Handler {
	return asyncHandler{next: h.next.WithGroup(name), a: h.a}
}
