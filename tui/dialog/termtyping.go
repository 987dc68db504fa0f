package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Claim makes the shown terminal interactive: it dispatches
// terminal/claimed for this client (remembering the claim to give back)
// and sends every following key as terminal/input until esc.
func (v *TermViewer) Claim() tea.Cmd {
	t := v.src.LiveTerminal(v.uri)
	switch {
	case v.uri == "" || t == nil:
		return uikit.Notice("the terminal is still loading", false)
	case v.send == nil || v.clientID == "":
		return uikit.Notice("this connection cannot type into terminals", true)
	case t.State().ExitCode != nil:
		return uikit.Notice("the terminal has exited: nothing to type into", false)
	}
	v.prev = t.State().Claim
	v.typing = true
	v.src.ClearClaimRejected(v.uri)
	mine := ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: v.clientID}
	if v.prev == mine {
		v.prev = ahpwire.TerminalClaim{} // already ours: nothing to give back
		return v.fitTerminal()
	}
	// The resize follows the claim (the Sender keeps their order): the
	// terminal gets the viewer's size once it is ours (termsize.go).
	return tea.Batch(v.send(v.uri, &ahpwire.TerminalClaimed{Claim: mine}, "claim the terminal"), v.fitTerminal())
}

// Typing reports whether the keys go to the terminal.
func (v *TermViewer) Typing() bool { return v.typing }

// release stops typing and gives the claim back to whoever held it.
func (v *TermViewer) release() tea.Cmd {
	v.typing = false
	if v.prev.Kind == "" || v.send == nil {
		return nil
	}
	prev := v.prev
	v.prev = ahpwire.TerminalClaim{}
	return v.send(v.uri, &ahpwire.TerminalClaimed{Claim: prev}, "give the terminal back")
}

// owned reports whether the host shows the terminal claimed by this client.
func (v *TermViewer) owned() bool {
	t := v.src.LiveTerminal(v.uri)
	if t == nil {
		return false
	}
	c := t.State().Claim
	return c.Kind == ahpwire.ClaimClient && c.ClientID == v.clientID
}

// updateTyping sends keys and pastes to the claimed terminal; the release
// key gives it back.
func (v *TermViewer) updateTyping(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	var data string
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if key.Matches(m, v.kmIn.Release) {
			return v, v.release(), uikit.ResultNone
		}
		data = KeyBytes(m)
	case tea.PasteMsg:
		data = m.Content
	}
	if data == "" || v.send == nil {
		return v, nil, uikit.ResultNone
	}
	return v, v.send(v.uri, &ahpwire.TerminalInput{Data: data}, "type into the terminal"), uikit.ResultNone
}

// KeyBytes is what a key press sends to a pty, as xterm encodes it ("" for
// keys without an encoding).
func KeyBytes(k tea.KeyPressMsg) string {
	ctrl, alt := k.Mod&tea.ModCtrl != 0, k.Mod&tea.ModAlt != 0
	prefix := ""
	if alt {
		prefix = "\x1b"
	}
	if ctrl {
		switch c := k.Code; {
		case c >= 'a' && c <= 'z':
			return prefix + string(rune(c-'a'+1))
		case c == ' ' || c == '@':
			return prefix + "\x00"
		case c >= '[' && c <= '_':
			return prefix + string(rune(c-'[')+0x1b)
		}
	}
	if s, ok := specialKeys[k.Code]; ok {
		return prefix + s
	}
	if k.Text != "" {
		return prefix + k.Text
	}
	return ""
}

// specialKeys are xterm's encodings of the keys without text.
var specialKeys = map[rune]string{
	tea.KeyEnter: "\r", tea.KeyTab: "\t", tea.KeyBackspace: "\x7f", tea.KeyEscape: "\x1b",
	tea.KeyUp: "\x1b[A", tea.KeyDown: "\x1b[B", tea.KeyRight: "\x1b[C", tea.KeyLeft: "\x1b[D",
	tea.KeyHome: "\x1b[H", tea.KeyEnd: "\x1b[F", tea.KeyPgUp: "\x1b[5~", tea.KeyPgDown: "\x1b[6~",
	tea.KeyInsert: "\x1b[2~", tea.KeyDelete: "\x1b[3~",
	tea.KeyF1: "\x1bOP", tea.KeyF2: "\x1bOQ", tea.KeyF3: "\x1bOR", tea.KeyF4: "\x1bOS",
	tea.KeyF5: "\x1b[15~", tea.KeyF6: "\x1b[17~", tea.KeyF7: "\x1b[18~", tea.KeyF8: "\x1b[19~",
	tea.KeyF9: "\x1b[20~", tea.KeyF10: "\x1b[21~", tea.KeyF11: "\x1b[23~", tea.KeyF12: "\x1b[24~",
}
