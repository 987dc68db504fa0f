package keymap

import "charm.land/bubbles/v2/key"

// KeyMap holds every binding of the application, grouped by context.
type KeyMap struct {
	Global     Global
	Picker     Picker
	Chat       Chat
	Composer   Composer
	Transcript Transcript
	Approval   Approval
	Auth       Auth
	Form       Form
	Confirm    Confirm
	Peek       Peek
	Help       HelpOverlay
	Demo       Demo
	Completion Completion
	Queue      Queue
	Search     Search
	Background Background
	SignIn     SignIn
	Changes    Changes
	Terminal   Terminal
	TermInput  TermInput
	Chord      Chord // keymap/shortcuts.go
	// HistorySearch is the prompt history search (keymap/shortcuts.go).
	HistorySearch HistorySearch
	// Notes write review comments (keymap/notes.go).
	Notes Notes
	// CopyPick is /copy's list of code blocks (keymap/copypick.go).
	CopyPick CopyPick
}

// Global bindings work on every screen.
type Global struct {
	Quit      key.Binding // ctrl+c; asks first when a turn is running
	Help      key.Binding // open the help overlay
	Reconnect key.Binding // while reconnecting: try now instead of waiting out the backoff
	Suspend   key.Binding // ctrl+z: suspend the process (job control)
}

// Picker bindings work in the session picker (typing filters the list).
type Picker struct {
	Up, Down       key.Binding
	PageUp, PageDn key.Binding
	Open           key.Binding
	New            key.Binding
	Dispose        key.Binding
	Refresh        key.Binding
	ClearFilter    key.Binding
	AgentPrev      key.Binding // agent choice when creating a session
	AgentNext      key.Binding
	Rename         key.Binding
	Archive        key.Binding
	ShowArchived   key.Binding
	ToggleRead     key.Binding
	// The inbox (picker/inbox.go): the next session that needs the user,
	// and a look at the selected one (its last lines, its approval or
	// question, answered without opening the chat).
	NextNeeding key.Binding
	Peek        key.Binding
}

// Chat bindings work in the chat screen whichever pane has focus.
type Chat struct {
	CancelTurn    key.Binding // esc: chat/turnCancelled
	SwitchFocus   key.Binding // tab: composer <-> transcript
	CycleThinking key.Binding // ctrl+t: collapsed -> tail -> full
	Resume        key.Binding // resume after a resumable error
	Resend        key.Binding // resend an uncertain message
	OpenPrompt    key.Binding // reopen a pending approval or input form
	Sessions      key.Binding // back to the session picker
	Queue         key.Binding // the queued-messages list
	Background    key.Binding // the background work / subagents list
	Artifacts     key.Binding // the session's artifacts (AHP 1.1), openable
	Parent        key.Binding // from a subagent's chat back to its parent
	Search        key.Binding // search the chat
	Settings      key.Binding // change the session's mutable settings (model, mode)
	NewSession    key.Binding // a new session with the same agent
	Changes       key.Binding // the changes view (keymap/channels.go)
	Terminals     key.Binding // the root terminals, read-only
	CycleMode     key.Binding // shift+tab: the next session mode (keymap/shortcuts.go)
}

// Composer bindings work while the composer has focus. Text editing keys
// (cursor movement, deletion) belong to the textarea component.
type Composer struct {
	Send        key.Binding
	Newline     key.Binding
	HistoryPrev key.Binding // only when the composer is empty (or showing history)
	HistoryNext key.Binding
	Editor      key.Binding // open $EDITOR
	Unqueue     key.Binding // remove the newest queued message
	Steer       key.Binding // while a turn runs: a steering message instead of queueing
	ScrollUp    key.Binding // page the transcript up without leaving the composer
	ScrollDown  key.Binding // page the transcript down
	// HistorySearch searches the prompt history (fuzzy), like a shell.
	HistorySearch key.Binding
	// Follow scrolls to the bottom and follows the stream (empty composer).
	Follow key.Binding
}

// Transcript bindings work while the transcript has focus.
type Transcript struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	HalfUp, HalfDown key.Binding
	Top, Bottom      key.Binding
	PrevBlock        key.Binding
	NextBlock        key.Binding
	ToggleBlock      key.Binding // expand/collapse the focused thinking or tool block
	Copy             key.Binding // OSC 52 copy of the focused block
	CopyCode         key.Binding // OSC 52 copy of the code block under the cursor
	Search           key.Binding
	SearchNext       key.Binding
	SearchPrev       key.Binding
	CopyMessage      key.Binding // OSC 52 copy of the focused message as markdown
	CopyAll          key.Binding // OSC 52 copy of the whole chat as markdown
	Export           key.Binding // write the chat to a markdown file
	TermUp, TermDown key.Binding // scroll the focused (expanded) terminal
	Help             key.Binding // ?: the help overlay
}

// Approval bindings work in the tool-call confirmation prompt.
type Approval struct {
	Approve      key.Binding
	Deny         key.Binding
	DenyReason   key.Binding
	Option       key.Binding // 1-9: host-provided options in order
	Up, Down     key.Binding // scroll long inputs
	Later        key.Binding // close the prompt; it stays pending
	SubmitReason key.Binding
}

// Auth bindings work in the notice shown when a tool call waits for the
// user to authenticate (auth-required). ahptui cannot sign in itself: the
// user authenticates from another client, or gives the tool call up.
type Auth struct {
	GiveUp key.Binding // fail the tool call (chat/toolCallComplete, success false)
	Later  key.Binding // close the notice; it stays pending
	SignIn key.Binding // paste a token for the resource (authenticate)
}

// Form bindings work in an input-request form.
type Form struct {
	NextField key.Binding
	PrevField key.Binding
	Up, Down  key.Binding // move within a select list
	Toggle    key.Binding // check/uncheck, flip a boolean
	Submit    key.Binding
	Decline   key.Binding // answer "decline"
	Cancel    key.Binding // answer "cancel"
	Later     key.Binding // close the form; the request stays open (ctrl+p reopens)
}

// Peek bindings work in the inbox's peek at a session (tui/dialog/peek.go).
type Peek struct {
	Open  key.Binding // open the session's chat
	Close key.Binding
}

// Confirm bindings work in yes/no dialogs (dispose, quit while running).
type Confirm struct {
	Yes key.Binding
	No  key.Binding
}

// HelpOverlay bindings close and scroll the help overlay.
type HelpOverlay struct {
	Close            key.Binding
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
}

// Demo bindings exist only with `ahptui demo` and AHPTUI_DEMO_FAULTS set.
type Demo struct {
	DropConnection key.Binding
}

func b(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

func k(ks ...string) []string { return ks }

// Default returns the default key map. Demo bindings start disabled.
func Default() KeyMap {
	km := KeyMap{
		Global: Global{
			Quit:      b(k("ctrl+c"), "ctrl+c", "quit"),
			Help:      b(k("f1", "ctrl+g"), "f1/ctrl+g", "help"),
			Reconnect: b(k("f5"), "f5", "reconnect now (while reconnecting)"),
		},
		Peek: Peek{
			Open:  b(k("enter"), "enter", "open the chat"),
			Close: b(k("esc", "q", "ctrl+p"), "esc", "close"),
		},
		Picker: Picker{
			Up:          b(k("up"), "↑", "up"),
			Down:        b(k("down"), "↓", "down"),
			PageUp:      b(k("pgup"), "pgup", "page up"),
			PageDn:      b(k("pgdown"), "pgdn", "page down"),
			Open:        b(k("enter"), "enter", "open session"),
			New:         b(k("ctrl+n"), "ctrl+n", "new session"),
			Dispose:     b(k("ctrl+x"), "ctrl+x", "dispose session"),
			Refresh:     b(k("ctrl+r"), "ctrl+r", "refresh"),
			ClearFilter: b(k("esc"), "esc", "clear filter"),
			AgentPrev:   b(k("left"), "←", "previous agent"),
			AgentNext:   b(k("right"), "→", "next agent"),
			NextNeeding: b(k("tab"), "tab", "next session that needs you"),
			Peek:        b(k("ctrl+p"), "ctrl+p", "peek: last lines, approve/deny, answer"),
		},
		Chat: Chat{
			CancelTurn:    b(k("esc"), "esc", "cancel turn"),
			SwitchFocus:   b(k("tab"), "tab", "composer ↔ transcript"),
			CycleThinking: b(k("ctrl+t"), "ctrl+t", "thinking: collapsed/tail/full"),
			Resume:        b(k("ctrl+r"), "ctrl+r", "resume turn"),
			Resend:        b(k("ctrl+y"), "ctrl+y", "resend uncertain message"),
			OpenPrompt:    b(k("ctrl+p"), "ctrl+p", "open pending approval/question"),
			Sessions:      b(k("ctrl+s"), "ctrl+s", "sessions"),
			NewSession:    b(k("ctrl+n"), "ctrl+n", "new session (same agent)"),
		},
		Composer: Composer{
			Send:        b(k("enter"), "enter", "send"),
			Newline:     b(k("ctrl+j", "shift+enter"), "ctrl+j/shift+enter", "newline"),
			HistoryPrev: b(k("up"), "↑", "previous prompt (empty composer)"),
			HistoryNext: b(k("down"), "↓", "next prompt"),
			Editor:      b(k("ctrl+o"), "ctrl+o", "edit in $EDITOR"),
			Unqueue:     b(k("ctrl+x"), "ctrl+x", "remove last queued message"),
			ScrollUp:    b(k("pgup"), "pgup", "scroll transcript up"),
			ScrollDown:  b(k("pgdown"), "pgdn", "scroll transcript down"),
		},
		Transcript: Transcript{
			Up:          b(k("up", "k"), "↑/k", "scroll up"),
			Down:        b(k("down", "j"), "↓/j", "scroll down"),
			PageUp:      b(k("pgup", "b"), "pgup/b", "page up"),
			PageDown:    b(k("pgdown", "f"), "pgdn/f", "page down"),
			HalfUp:      b(k("ctrl+u", "u"), "ctrl+u/u", "half page up"),
			HalfDown:    b(k("ctrl+d", "d"), "ctrl+d/d", "half page down"),
			Top:         b(k("home", "g"), "home/g", "top"),
			Bottom:      b(k("end", "G"), "end/G", "bottom (follow)"),
			PrevBlock:   b(k("[", "shift+up"), "[", "previous block"),
			NextBlock:   b(k("]", "shift+down"), "]", "next block"),
			ToggleBlock: b(k("enter", "space"), "enter/space", "expand/collapse block"),
			Copy:        b(k("y"), "y", "copy block"),
			CopyCode:    b(k("Y"), "Y", "copy the code block under the cursor"),
		},
		Approval: Approval{
			Approve:      b(k("a", "y"), "a/y", "approve"),
			Deny:         b(k("d", "n"), "d/n", "deny"),
			DenyReason:   b(k("r"), "r", "deny with reason"),
			Option:       b(k("1", "2", "3", "4", "5", "6", "7", "8", "9"), "1-9", "host option"),
			Up:           b(k("up", "k"), "↑", "scroll up"),
			Down:         b(k("down", "j"), "↓", "scroll down"),
			Later:        b(k("esc"), "esc", "decide later"),
			SubmitReason: b(k("enter"), "enter", "submit reason"),
		},
		Auth: Auth{
			GiveUp: b(k("f"), "f", "give up: fail the tool call"),
			Later:  b(k("esc"), "esc", "wait (authenticate elsewhere)"),
		},
		Form: Form{
			NextField: b(k("tab"), "tab", "next field"),
			PrevField: b(k("shift+tab"), "shift+tab", "previous field"),
			Up:        b(k("up"), "↑", "previous option"),
			Down:      b(k("down"), "↓", "next option"),
			Toggle:    b(k("space"), "space", "toggle"),
			Submit:    b(k("enter"), "enter", "next / submit"),
			Decline:   b(k("ctrl+d"), "ctrl+d", "decline"),
			Cancel:    b(k("ctrl+x"), "ctrl+x", "cancel the request"),
			Later:     b(k("esc"), "esc", "answer later"),
		},
		Confirm: Confirm{
			Yes: b(k("y", "enter"), "y", "yes"),
			No:  b(k("n", "esc"), "n/esc", "no"),
		},
		Help: HelpOverlay{
			Close:    b(k("esc", "q", "?"), "esc/q", "close help"),
			Up:       b(k("up", "k"), "↑/k", "scroll up"),
			Down:     b(k("down", "j"), "↓/j", "scroll down"),
			PageUp:   b(k("pgup", "b"), "pgup/b", "page up"),
			PageDown: b(k("pgdown", "f", "space"), "pgdn/f", "page down"),
		},
		Demo: Demo{
			DropConnection: key.NewBinding(key.WithKeys("f12"), key.WithHelp("f12", "demo: drop connection"), key.WithDisabled()),
		},
	}
	km.Approval.SubmitReason.SetEnabled(false)
	listDefaults(&km)
	channelDefaults(&km)
	shortcutDefaults(&km)
	copyPickDefaults(&km)
	notesDefaults(&km)
	return km
}
