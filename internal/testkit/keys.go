package testkit

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// KeyPress builds a key press from a key name as key.Matches sees it
// ("enter", "f5", "shift+tab", "alt+x", "ctrl+c", or a single character).
func KeyPress(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
	case "f5":
		return tea.KeyPressMsg{Code: tea.KeyF5}
	case "f12":
		return tea.KeyPressMsg{Code: tea.KeyF12}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	if strings.HasPrefix(s, "alt+") {
		return tea.KeyPressMsg{Code: rune(s[4]), Mod: tea.ModAlt}
	}
	if strings.HasPrefix(s, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}
