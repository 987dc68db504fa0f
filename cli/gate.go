package cli

import (
	"fmt"
	"io"
	"sync"
)

// maxHeldLog bounds what a gatedWriter holds back before it is opened.
const maxHeldLog = 256 << 10

// gatedWriter holds writes back until open is called, then writes them,
// in order, and passes every later write straight through. `serve` logs
// through one so that its URL is the first thing on the terminal even when
// the host logs while it starts.
type gatedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	held    []byte
	limit   int
	dropped int
	opened  bool
}

// newGatedWriter returns a closed gate in front of w holding up to limit bytes.
func newGatedWriter(w io.Writer, limit int) *gatedWriter {
	return &gatedWriter{w: w, limit: limit}
}

// Write holds p while the gate is closed (dropping what exceeds the
// limit, counted), and writes it through once it is open.
func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opened {
		return g.w.Write(p) //nolint:wrapcheck // pass-through
	}
	if len(g.held)+len(p) > g.limit {
		g.dropped++
		return len(p), nil
	}
	g.held = append(g.held, p...)
	return len(p), nil
}

// open writes what was held (and a note about lines dropped) and lets
// every later write through. It is idempotent.
func (g *gatedWriter) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opened {
		return
	}
	g.opened = true
	_, _ = g.w.Write(g.held)
	g.held = nil
	if g.dropped > 0 {
		_, _ = fmt.Fprintf(g.w, "ahptui: %d early log lines dropped\n", g.dropped)
	}
}
