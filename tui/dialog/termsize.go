package dialog

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// The terminal viewer's size. A terminal the user types into is resized to
// the viewer's text area (terminal/resized), as a terminal emulator sizes
// its pty to its window: the program behind it then wraps its lines where
// the viewer ends, and resizing the window resizes the terminal again.
// A terminal only looked at keeps its size (another client or the agent
// may depend on it); lines wider than the viewer scroll sideways.

// Bounds of terminal/resized (ahpstate.MaxTerminalCols and MaxTerminalRows).
const (
	maxResizeCols = 1000
	maxResizeRows = 500
)

// textArea is the viewer's text area in a width×height window: the box's
// border and padding take 4 columns, its border, title and note line 4 rows.
func textArea(width, height int) (cols, rows int) {
	return max(20, width-4), max(1, height-4)
}

// Fit records the window the viewer is drawn in (the root calls it when
// the viewer opens and when the window is resized). While the user types
// into the terminal it returns the terminal/resized that fits the terminal
// to the viewer.
func (v *TermViewer) Fit(width, height int) tea.Cmd {
	if width <= 0 || height <= 0 {
		return nil // no window yet: nothing to fit to
	}
	v.cols, v.rows = textArea(width, height)
	v.page = v.rows
	if !v.typing {
		return nil
	}
	return v.fitTerminal()
}

// fitTerminal dispatches terminal/resized when the shown terminal's size
// is not the viewer's and nobody else holds it (the host would refuse).
func (v *TermViewer) fitTerminal() tea.Cmd {
	t := v.src.LiveTerminal(v.uri)
	if t == nil || v.send == nil || v.cols <= 0 || !t.Pty() {
		return nil
	}
	st := t.State()
	if c := st.Claim; c.Kind == ahpwire.ClaimClient && c.ClientID != v.clientID || st.ExitCode != nil {
		return nil
	}
	cols, rows := int64(min(v.cols, maxResizeCols)), int64(min(v.rows, maxResizeRows))
	if st.Cols != nil && *st.Cols == cols && st.Rows != nil && *st.Rows == rows {
		return nil
	}
	return v.send(v.uri, &ahpwire.TerminalResized{Cols: cols, Rows: rows}, "resize the terminal")
}

// hscrollBy scrolls the lines sideways by n columns (clamped in View).
func (v *TermViewer) hscrollBy(n int) {
	v.hscroll = max(0, v.hscroll+n)
}
