package keymap

import "charm.land/bubbles/v2/key"

// Changes bindings work in the changes view (the files a session changed)
// and in a file's diff opened from it.
type Changes struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Open             key.Binding // open the selected file's diff
	Review           key.Binding // mark the selected file reviewed / not reviewed
	Close            key.Binding // back to the list, or close the view
}

// Terminal bindings work in the terminal viewer (terminals the host lists
// in its root state, or the one a focused tool block shows).
type Terminal struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Left, Right      key.Binding // scroll sideways (lines wider than the viewer)
	Next             key.Binding // next terminal
	Copy             key.Binding // copy the terminal's text (OSC 52)
	Close            key.Binding
	Interact         key.Binding // claim the terminal and type into it (also on a focused terminal block)
}

// TermInput bindings work while the user types into a claimed terminal:
// every other key goes to the terminal as terminal/input.
type TermInput struct {
	Release key.Binding // give the terminal back (stop typing into it)
}

// channelDefaults fills the bindings of the changes view, the terminal
// viewer, and the chat and transcript keys that reach them.
func channelDefaults(km *KeyMap) {
	km.Chat.Changes = b(k("f6"), "f6", "changes view (files changed)")
	km.Chat.Terminals = b(k("f7"), "f7", "open the host's terminals")
	km.Transcript.TermUp = b(k("{"), "{", "scroll the focused terminal up")
	km.Transcript.TermDown = b(k("}"), "}", "scroll the focused terminal down")
	km.Changes = Changes{
		Up:       b(k("up", "k"), "↑/k", "previous file / scroll up"),
		Down:     b(k("down", "j"), "↓/j", "next file / scroll down"),
		PageUp:   b(k("pgup", "b"), "pgup/b", "page up"),
		PageDown: b(k("pgdown", "f"), "pgdn/f", "page down"),
		Open:     b(k("enter"), "enter", "open the file's diff"),
		Review:   b(k("space", "v"), "space/v", "toggle reviewed"),
		Close:    b(k("esc", "q", "f6"), "esc/q", "back / close"),
	}
	km.Terminal = Terminal{
		Up:       b(k("up", "k"), "↑/k", "scroll up"),
		Down:     b(k("down", "j"), "↓/j", "scroll down"),
		PageUp:   b(k("pgup", "b"), "pgup/b", "page up"),
		PageDown: b(k("pgdown", "f", "space"), "pgdn/f", "page down"),
		Top:      b(k("home", "g"), "home/g", "top"),
		Bottom:   b(k("end", "G"), "end/G", "bottom"),
		Left:     b(k("left", "h"), "←/h", "scroll left"),
		Right:    b(k("right", "l"), "→/l", "scroll right (lines wider than the viewer)"),
		Next:     b(k("tab"), "tab", "next terminal"),
		Copy:     b(k("y"), "y", "copy text"),
		Close:    b(k("esc", "q", "f7"), "esc/q", "close"),
		Interact: b(k("enter"), "enter", "type into the terminal (claims it)"),
	}
	km.TermInput = TermInput{
		Release: b(k("esc"), "esc", "give the terminal back (keys go to it until then)"),
	}
}
