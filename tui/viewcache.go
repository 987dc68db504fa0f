package tui

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
	fc := &m.c.view
	if fc.reuse && fc.valid {
		return fc.content
	}
	fc.content, fc.valid = m.render(), true
	return fc.content
}
