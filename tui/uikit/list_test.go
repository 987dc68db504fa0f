package uikit

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestListKeysMove(t *testing.T) {
	l := ListKeys{Up: key.NewBinding(key.WithKeys("up")), Down: key.NewBinding(key.WithKeys("down")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"))}
	press := func(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code} }
	for _, c := range []struct {
		k            tea.KeyPressMsg
		cur, n, page int
		want         int
		moved        bool
	}{
		{press(tea.KeyUp), 0, 5, 0, 0, true},
		{press(tea.KeyDown), 4, 5, 0, 4, true},
		{press(tea.KeyDown), 1, 5, 0, 2, true},
		{press(tea.KeyPgDown), 0, 50, 10, 9, true},
		{press(tea.KeyPgDown), 45, 50, 10, 49, true},
		{press(tea.KeyPgUp), 3, 5, 10, 3, false}, // no PageUp binding
		{press('x'), 2, 5, 0, 2, false},
	} {
		got, moved := l.Move(c.k, c.cur, c.n, c.page)
		if got != c.want || moved != c.moved {
			t.Errorf("%v from %d of %d: %d %v, want %d %v", c.k, c.cur, c.n, got, moved, c.want, c.moved)
		}
	}
}
