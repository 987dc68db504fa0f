package tui

import (
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
)

// drawn is what the last View drew, shared by the copies of the value
// Model (Bubble Tea hands Update's result to View).
type drawn struct {
	// view is the last frame, reused while only streamed text grew.
	view frameCache
	// status is the status line's last drawing.
	status statusView
}

// frameCache keeps the last frame drawn. Bubble Tea calls View after every
// Update; while a reply streams, most Updates only grow the open block's
// text, which the transcript lays out at the next frame tick (frameMsg),
// so the screen cannot have changed: View hands the same frame back
// instead of drawing the transcript window, composer, hints and status
// line again. Any other message (keys, frame ticks, resizes, notices,
// timers) draws anew.
type frameCache struct {
	content string
	valid   bool
	// reuse is set by an Update that only grew streamed text
	// (Model.onlyStreamedText) and cleared by every other Update.
	reuse bool
}

// frameContent is render, reusing the last frame when the last Update
// changed nothing on screen.
func (m *Model) frameContent() string {
	fc := &m.drawn.view
	if fc.reuse && fc.valid {
		return fc.content
	}
	fc.content, fc.valid = m.render(), true
	return fc.content
}

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
func (c *composer) touch() { c.gen = composerGens.Add(1) }

// View draws the composer (textarea), reusing the last drawing when its
// inputs did not change.
func (c *composer) View() string {
	if c.vc == nil {
		return c.ta.View()
	}
	k := composerKey{gen: c.gen, value: c.ta.Value(), line: c.ta.Line(), col: c.ta.Column(), focused: c.ta.Focused(),
		w: c.ta.Width(), h: c.ta.Height(), placeholder: c.ta.Placeholder}
	if c.vc.ok && c.vc.key == k {
		return c.vc.out
	}
	c.vc.key, c.vc.out, c.vc.ok = k, c.ta.View(), true
	return c.vc.out
}

// statusView keeps the status line's last drawing while connected (the
// other phases show a countdown that moves with the clock).
type statusView struct {
	key statusKey
	out string
	ok  bool
}

// statusKey is what the status line depends on while connected: all of
// statusInfo (so that a field added there can never be left out of the
// key) but the clock and the link error, which only the other phases show,
// and the theme and width.
type statusKey struct {
	info         statusInfo
	theme        string
	width        int
	stalledWhole int64 // the silence in whole seconds, as shown
}

// statusLine draws the status line for s, reusing the last drawing when
// nothing it shows changed.
func (m *Model) statusLine(s statusInfo) string {
	if s.conn.Phase != ahpclient.Connected {
		return renderStatus(&m.c.styles, s, m.width)
	}
	info := s
	info.now, info.conn.Err, info.conn.NextRetry = time.Time{}, nil, time.Time{}
	info.stalled = 0
	k := statusKey{info: info, theme: m.c.rstyles.Name, width: m.width,
		stalledWhole: int64(s.stalled.Round(time.Second) / time.Second)}
	sv := &m.drawn.status
	if sv.ok && sv.key == k {
		return sv.out
	}
	sv.key, sv.out, sv.ok = k, renderStatus(&m.c.styles, s, m.width), true
	return sv.out
}
