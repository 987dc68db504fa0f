package render

import "time"

// FrameInterval is the frame period streaming renders are coalesced to
// (about 60 frames per second).
const FrameInterval = 16 * time.Millisecond

// FrameGate coalesces render requests to the frame rate. The render
// package never renders on its own; the TUI owns the loop:
//
//	on every delta:        gate.Mark() (and arm a tea.Tick(FrameInterval) if none is pending)
//	on the tick (time t):  if gate.Due(t) { re-render the streaming message }
//
// so that any number of deltas between two ticks costs one render. FrameGate
// reads no clock: times come from the caller. The zero value uses
// FrameInterval. It is not safe for concurrent use (Bubble Tea's Update is
// single-threaded).
type FrameGate struct {
	// Interval is the minimum time between two renders (0 = FrameInterval).
	Interval time.Duration
	last     time.Time
	dirty    bool
}

// Mark records that something changed and needs a render.
func (g *FrameGate) Mark() { g.dirty = true }

// Pending reports whether a change is waiting for a render.
func (g *FrameGate) Pending() bool { return g.dirty }

// Due reports whether a render should happen at now: something changed
// and at least Interval passed since the last render. When it returns true
// the change counts as rendered.
func (g *FrameGate) Due(now time.Time) bool {
	if !g.dirty {
		return false
	}
	iv := g.Interval
	if iv <= 0 {
		iv = FrameInterval
	}
	if !g.last.IsZero() && now.Sub(g.last) < iv && !now.Before(g.last) {
		return false
	}
	g.last, g.dirty = now, false
	return true
}
