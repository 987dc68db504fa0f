package tui

import (
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
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
	info         app.StatusInfo
	theme        string
	width        int
	stalledWhole int64 // the silence in whole seconds, as shown
}

// statusLine draws the status line for s, reusing the last drawing when
// nothing it shows changed.
func (m *Model) statusLine(s app.StatusInfo) string {
	if s.Conn.Phase != ahpclient.Connected {
		return renderStatus(&m.c.Styles, s, m.width)
	}
	info := s
	info.Now, info.Conn.Err, info.Conn.NextRetry = time.Time{}, nil, time.Time{}
	info.Stalled = 0
	k := statusKey{info: info, theme: m.c.RStyles.Name, width: m.width,
		stalledWhole: int64(s.Stalled.Round(time.Second) / time.Second)}
	sv := &m.drawn.status
	if sv.ok && sv.key == k {
		return sv.out
	}
	sv.key, sv.out, sv.ok = k, renderStatus(&m.c.Styles, s, m.width), true
	return sv.out
}
