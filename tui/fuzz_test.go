package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// FuzzChatKeys feeds arbitrary key sequences and pastes to a chat with a
// pending approval and a running turn: the model must never panic and every
// frame must keep its exact height and fit the width. The seed corpus in
// testdata/fuzz/FuzzChatKeys holds earlier crashers (3622cb603a1a3a7a: a
// paste in an 8×8 terminal grew the composer past the screen).
func FuzzChatKeys(f *testing.F) {
	f.Add("hello\r\x1b[A\t]]\r\x7f", uint8(80), uint8(24))
	f.Add("\x14\x14\x14\tgG[[yY\x1b", uint8(20), uint8(5))
	f.Add("ad r reason\r\x10", uint8(120), uint8(40))
	f.Add("\x0f\x18\x19\x12\x13", uint8(3), uint8(3))
	f.Fuzz(func(t *testing.T, keys string, w, h uint8) {
		if !utf8.ValidString(keys) || len(keys) > 200 {
			return
		}
		m, _ := runningChat(t, pendingTool(), reasoningPart())
		width, height := int(w%160)+1, int(h%60)+3
		m = send(t, m, tea.WindowSizeMsg{Width: width, Height: height})
		for i, r := range keys {
			var msg tea.Msg
			switch {
			case r == '\r':
				msg = keyPress("enter")
			case r == '\t':
				msg = keyPress("tab")
			case r == 0x1b:
				msg = keyPress("esc")
			case r == 0x7f:
				msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
			case r < 0x20:
				msg = tea.KeyPressMsg{Code: 'a' + r - 1, Mod: tea.ModCtrl}
			case i%17 == 16:
				msg = tea.PasteMsg{Content: strings.Repeat(string(r), 30) + "\n\tx"}
			default:
				msg = tea.KeyPressMsg{Code: r, Text: string(r)}
			}
			if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
				continue
			}
			nm, _ := m.Update(msg)
			m = nm.(Model)
			frame := m.View().Content
			if n := strings.Count(frame, "\n") + 1; n != height {
				t.Fatalf("after %q the frame has %d lines, want %d", string(r), n, height)
			}
			for j, l := range strings.Split(frame, "\n") {
				if lw := ansi.StringWidth(l); lw > width {
					t.Fatalf("after %q line %d is %d columns wide (> %d): %q", string(r), j, lw, width, ansi.Strip(l))
				}
			}
		}
	})
}
