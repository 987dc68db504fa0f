package uikit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// ListKeys are the keys that move a list's cursor, the one way every list
// of the UI moves (the background and queue lists, the artifact list, the
// changes view). A zero binding moves nothing.
type ListKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

// Move returns the cursor over n rows after k (a page is page rows), and
// whether k was one of the keys. The cursor stays within 0..n-1.
func (l ListKeys) Move(k tea.KeyPressMsg, cur, n, page int) (int, bool) {
	step := max(1, page-1)
	switch {
	case key.Matches(k, l.Up):
		cur--
	case key.Matches(k, l.Down):
		cur++
	case key.Matches(k, l.PageUp):
		cur -= step
	case key.Matches(k, l.PageDown):
		cur += step
	default:
		return cur, false
	}
	return max(0, min(cur, n-1)), true
}
