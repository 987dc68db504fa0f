package chat

import (
	"sync/atomic"
)

// composerView keeps the composer's last drawing. The textarea redraws its
// text, cursor and placeholder on every View; the frame ticks of a stream,
// timers and host events do not touch it, so the drawing is reused while
// its inputs are the same: the text, cursor, focus, size and placeholder,
// and gen, which every composer Update and style change renews (the
// cursor's blink and the textarea's scroll move only there).
type composerView struct {
	key composerKey
	out string
	ok  bool
}

// composerKey is what the composer's drawing depends on.
type composerKey struct {
	gen         uint64
	value       string
	line, col   int
	focused     bool
	w, h        int
	placeholder string
}

// composerGens numbers composer changes process-wide, so that two copies of
// a composer changed differently never share a number.
var composerGens atomic.Uint64

// touch marks a change of the composer its drawing cannot see otherwise.
func (c *Composer) touch() { c.gen = composerGens.Add(1) }

// View draws the composer (textarea), reusing the last drawing when its
// inputs did not change.
func (c *Composer) View() string {
	if c.vc == nil {
		return c.Ta.View()
	}
	k := composerKey{gen: c.gen, value: c.Ta.Value(), line: c.Ta.Line(), col: c.Ta.Column(), focused: c.Ta.Focused(),
		w: c.Ta.Width(), h: c.Ta.Height(), placeholder: c.Ta.Placeholder}
	if c.vc.ok && c.vc.key == k {
		return c.vc.out
	}
	c.vc.key, c.vc.out, c.vc.ok = k, c.Ta.View(), true
	return c.vc.out
}
