package keymap

import "charm.land/bubbles/v2/key"

// Chord bindings are the second key of a ctrl+x chord in the composer
// (emacs and readline users' ctrl+x ctrl+e). They are live only right
// after the prefix, so they have a context of their own.
type Chord struct {
	Editor  key.Binding // ctrl+x ctrl+e: open $EDITOR on the draft
	Unqueue key.Binding // ctrl+x ctrl+x: remove the newest queued message
	Cancel  key.Binding // esc: forget the prefix
}

// HistorySearch bindings work in the prompt history search (ctrl+r).
type HistorySearch struct {
	Older  key.Binding // the next older match (ctrl+r again, as in a shell)
	Newer  key.Binding
	Accept key.Binding // put the match into the composer
	Close  key.Binding
}

// shortcutDefaults fills the bindings people bring from Claude Code, Codex and
// crush: ctrl+g for $EDITOR, ctrl+r for prompt history search, shift+tab
// for the session mode, ctrl+z to suspend, end to follow the stream, and a
// non-F-key twin for every F-key action.
func shortcutDefaults(km *KeyMap) {
	km.Global.Help = b(k("f1"), "f1", "help (? in the transcript)")
	km.Global.Suspend = b(k("ctrl+z"), "ctrl+z", "suspend (fg resumes)")
	km.Chat.Resume = b(k("alt+r"), "alt+r", "resume turn (or /resume)")
	km.Chat.CycleMode = b(k("shift+tab"), "shift+tab", "cycle session mode")
	km.Chat.Queue = b(k("f2", "alt+q"), "f2/alt+q", "queued messages: edit, remove, reorder")
	km.Chat.Background = b(k("f3", "alt+j"), "f3/alt+j", "background work and subagents")
	km.Chat.Settings = b(k("f4", "alt+m"), "f4/alt+m", "session settings: model, mode")
	km.Chat.Changes = b(k("f6", "alt+e"), "f6/alt+e", "changes view (files changed)")
	km.Chat.Terminals = b(k("f7", "alt+t"), "f7/alt+t", "open the host's terminals (read-only)")
	km.Composer.Editor = b(k("ctrl+g", "ctrl+o"), "ctrl+g/ctrl+o", "edit in $EDITOR (also ctrl+x ctrl+e)")
	km.Composer.Unqueue = b(k("ctrl+x"), "ctrl+x", "chord prefix: ctrl+x ctrl+e editor · ctrl+x ctrl+x unqueue")
	km.Composer.HistorySearch = b(k("ctrl+r"), "ctrl+r", "search prompt history")
	km.Composer.Follow = b(k("end"), "end", "follow the stream (empty composer)")
	km.Chat.CancelTurn = b(k("esc"), "esc", "cancel turn (a draft is cleared first; ↑ brings it back)")
	km.Global.Reconnect = b(k("f5", "alt+w"), "f5", "reconnect now (alt+w too; while reconnecting)")
	km.Queue.Close = b(k("esc", "f2", "alt+q"), "esc", "close")
	km.Background.Close = b(k("esc", "f3", "alt+j"), "esc", "close")
	km.Changes.Close = b(k("esc", "q", "f6", "alt+e"), "esc/q", "back / close")
	km.Terminal.Close = b(k("esc", "q", "f7", "alt+t"), "esc/q", "close")
	km.Transcript.Help = b(k("?"), "?", "help")
	km.Picker.Rename = b(k("f2", "alt+n"), "f2", "rename session (alt+n too)")
	km.HistorySearch = HistorySearch{
		Older:  b(k("ctrl+r", "up"), "ctrl+r/↑", "older match"),
		Newer:  b(k("ctrl+s", "down"), "ctrl+s/↓", "newer match"),
		Accept: b(k("enter", "tab"), "enter", "use it (edit before sending)"),
		Close:  b(k("esc", "ctrl+g"), "esc", "close"),
	}
	km.Chord = Chord{
		Editor:  b(k("ctrl+e"), "ctrl+x ctrl+e", "edit in $EDITOR"),
		Unqueue: b(k("ctrl+x"), "ctrl+x ctrl+x", "remove last queued message"),
		Cancel:  b(k("esc"), "esc", "forget the ctrl+x prefix"),
	}
}
