package keymap

import "charm.land/bubbles/v2/key"

// Completion bindings work while the composer's completion popup is open;
// every other key goes on to the composer.
type Completion struct {
	Next   key.Binding
	Prev   key.Binding
	Accept key.Binding // insert the item; its attachment goes with the message
	// AcceptOrSend inserts like Accept, but sends the message when the
	// token already is the selected item (a complete command).
	AcceptOrSend key.Binding
	Close        key.Binding
}

// Queue bindings work in the queued-messages list (opened from the chat).
type Queue struct {
	Up, Down key.Binding
	MoveUp   key.Binding // reorder: the selected message runs earlier
	MoveDown key.Binding
	Edit     key.Binding // load it into the composer; sending replaces it
	Remove   key.Binding
	Close    key.Binding
}

// Search bindings work while the transcript search bar is open.
type Search struct {
	Next  key.Binding // enter: go to the next match
	Prev  key.Binding
	Close key.Binding
}

// Background bindings work in the list of background work and subagents.
type Background struct {
	Up, Down key.Binding
	Open     key.Binding // open the selected subagent's chat
	Close    key.Binding
}

// SignIn bindings work in the token prompt of a protected resource.
type SignIn struct {
	Submit key.Binding
	Cancel key.Binding
	// Next shows the next resource asking for a sign-in (an agent with
	// several sign-in methods asks for each).
	Next key.Binding
}

// listDefaults fills the bindings of the composer/session features.
func listDefaults(km *KeyMap) {
	km.Composer.Steer = b(k("alt+enter"), "alt+enter", "steer the running turn")
	km.Chat.Queue = b(k("f2"), "f2", "queued messages: edit, remove, reorder")
	km.Chat.Background = b(k("f3"), "f3", "background work and subagents")
	km.Chat.Artifacts = b(k("f8", "alt+o"), "f8/alt+o", "session artifacts: list and open")
	km.Chat.Parent = b(k("alt+p"), "alt+p", "back to the parent chat")
	km.Chat.Search = b(k("ctrl+f"), "ctrl+f", "search the chat")
	km.Chat.Settings = b(k("f4"), "f4", "session settings: model, mode")
	km.Transcript.Search = b(k("/"), "/", "search the chat")
	km.Transcript.SearchNext = b(k("n"), "n", "next match")
	km.Transcript.SearchPrev = b(k("N"), "N", "previous match")
	km.Transcript.CopyMessage = b(k("c"), "c", "copy message as markdown")
	km.Transcript.CopyAll = b(k("C"), "C", "copy whole chat as markdown")
	km.Transcript.Export = b(k("e"), "e", "export chat to a markdown file")
	km.Picker.Rename = b(k("f2"), "f2", "rename session")
	km.Picker.Archive = b(k("alt+a"), "alt+a", "archive / unarchive")
	km.Picker.ShowArchived = b(k("alt+h"), "alt+h", "show / hide archived")
	km.Picker.ToggleRead = b(k("alt+u"), "alt+u", "mark read / unread")
	km.Auth.SignIn = b(k("s"), "s", "sign in with a token")
	km.SignIn = SignIn{
		Submit: b(k("enter"), "enter", "send the token"),
		Cancel: b(k("esc"), "esc", "cancel"),
		Next:   b(k("tab"), "tab", "next resource (sign-in method)"),
	}
	km.Completion = Completion{
		Next:         b(k("down", "ctrl+n"), "↓", "next completion"),
		Prev:         b(k("up", "ctrl+p"), "↑", "previous completion"),
		Accept:       b(k("tab"), "tab", "insert completion"),
		AcceptOrSend: b(k("enter"), "enter", "insert completion (send when already complete)"),
		Close:        b(k("esc"), "esc", "close completions"),
	}
	km.Queue = Queue{
		Up:       b(k("up", "k"), "↑", "previous"),
		Down:     b(k("down", "j"), "↓", "next"),
		MoveUp:   b(k("shift+up", "K"), "shift+↑/K", "move earlier"),
		MoveDown: b(k("shift+down", "J"), "shift+↓/J", "move later"),
		Edit:     b(k("enter", "e"), "enter/e", "edit in the composer"),
		Remove:   b(k("delete", "x", "d"), "del/x", "remove"),
		Close:    b(k("esc", "f2"), "esc", "close"),
	}
	km.Search = Search{
		Next:  b(k("enter", "down"), "enter/↓", "next match"),
		Prev:  b(k("shift+enter", "up"), "↑", "previous match"),
		Close: b(k("esc"), "esc", "close search (n/N keep working)"),
	}
	km.Background = Background{
		Up:    b(k("up", "k"), "↑", "previous"),
		Down:  b(k("down", "j"), "↓", "next"),
		Open:  b(k("enter"), "enter", "open subagent chat"),
		Close: b(k("esc", "f3"), "esc", "close"),
	}
}
