package keymap

import "charm.land/bubbles/v2/key"

// Notes bindings write review comments (the session's annotations): in
// the transcript on the focused turn, in the changes view on the selected
// file, and from anywhere in the chat send the open ones to the agent.
type Notes struct {
	Comment key.Binding // transcript / changes view: a new comment
	Reply   key.Binding // transcript: reply to the turn's newest open comment
	Resolve key.Binding // transcript: resolve (or reopen) the turn's newest comment
	Send    key.Binding // chat: the open comments as the next prompt
}

// notesDefaults fills the review-comment bindings (keys of the transcript
// and the changes view that nothing else uses there).
func notesDefaults(km *KeyMap) {
	km.Notes = Notes{
		Comment: b(k("m"), "m", "comment on the focused turn / the selected file"),
		Reply:   b(k("M"), "M", "reply to the turn's newest open comment"),
		Resolve: b(k("x"), "x", "resolve / reopen the turn's newest comment"),
		Send:    b(k("f9", "alt+v"), "f9/alt+v", "send the open review comments to the agent"),
	}
}
