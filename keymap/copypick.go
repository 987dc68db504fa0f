package keymap

import "charm.land/bubbles/v2/key"

// CopyPick bindings work in /copy's list of the last reply's code blocks
// (tui/dialog/copypick.go).
type CopyPick struct {
	Up, Down key.Binding
	Accept   key.Binding // copy the selected block (OSC 52)
	Close    key.Binding
}

// copyPickDefaults fills the /copy list's bindings.
func copyPickDefaults(km *KeyMap) {
	km.CopyPick = CopyPick{
		Up:     b(k("up", "k", "ctrl+p"), "↑/k", "previous"),
		Down:   b(k("down", "j", "ctrl+n"), "↓/j", "next"),
		Accept: b(k("enter", "y"), "enter", "copy it"),
		Close:  b(k("esc", "q"), "esc", "close"),
	}
}
