package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Review comments (the session's annotations channel, issue 31): the
// transcript shows each under the reply of its turn (render/notes.go); in
// the transcript m comments on the focused turn (on the file of a focused
// edit), M replies to the turn's newest open comment, x resolves or
// reopens its newest; f9 puts the open comments into the composer as the
// next prompt (ahpwire.ReviewPrompt), to send as they are or edited.

// noteKey handles the review-comment keys of the chat screen (ok false:
// not one of them, or not applicable here).
func (m *Model) noteKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	c, km := m.chat, &m.c.KM.Notes
	if key.Matches(k, km.Send) {
		return m.sendComments(), true
	}
	if c.Focus != chat.FocusTranscript || c.Extras.Modal() {
		return nil, false
	}
	switch {
	case key.Matches(k, km.Comment):
		return m.commentOnFocus(), true
	case key.Matches(k, km.Reply):
		return m.replyOnFocus(), true
	case key.Matches(k, km.Resolve):
		return m.resolveOnFocus(), true
	}
	return nil, false
}

// notesChannel is the open session's annotations channel.
func (m *Model) notesChannel() string { return ahpwire.AnnotationsURI(m.chat.Session) }

// newNoteID makes an id no other client picks (the app's id source, as for
// turns).
func (m *Model) newNoteID() string { return "note-" + m.c.NewID() }

// commentOnFocus asks for a comment on the focused turn.
func (m *Model) commentOnFocus() tea.Cmd {
	turn, resource, ok := m.chat.NoteTarget()
	if !ok {
		return uikit.Notice("focus a reply first ([ or ]) to comment on it", false)
	}
	return m.askComment(turn, resource, "Comment on "+ahpwire.AnnotationPlace(ahpwire.Annotation{Resource: resource}))
}

// askComment opens the comment prompt for a new thread on resource in turn.
func (m *Model) askComment(turn, resource, title string) tea.Cmd {
	id := m.newNoteID()
	session, chatURI := m.chat.Session, m.chat.URI
	build := func(text string) ahpwire.Action {
		return &ahpwire.AnnotationsSet{Annotation: ahpwire.Annotation{
			ID: id, TurnID: turn, Resource: resource,
			Origin:  &ahpwire.AnnotationOrigin{Session: session, Chat: chatURI, TurnID: turn},
			Entries: []ahpwire.AnnotationEntry{{ID: id + "/0", Text: ahpwire.Plain(text), Meta: ahpwire.AuthorMeta("user")}},
		}}
	}
	m.overlays = append(m.overlays, dialog.NewComment(m.c.KM.SignIn, m.c.Dispatch, &m.c.Styles, m.notesChannel(), title, build))
	return nil
}

// newestNote is the newest comment of the focused turn (open ones first
// when openOnly).
func (m *Model) newestNote(openOnly bool) (ahpwire.Annotation, bool) {
	turn, _, ok := m.chat.NoteTarget()
	if !ok {
		return ahpwire.Annotation{}, false
	}
	list := m.c.Channels.NotesOf(m.chat.Session)
	for i := len(list) - 1; i >= 0; i-- {
		if a := list[i]; a.Turn() == turn && (!openOnly || !a.Resolved) {
			return a, true
		}
	}
	return ahpwire.Annotation{}, false
}

// replyOnFocus asks for a reply to the focused turn's newest open comment.
func (m *Model) replyOnFocus() tea.Cmd {
	a, ok := m.newestNote(true)
	if !ok {
		return uikit.Notice("no open comment on this turn — m writes one", false)
	}
	id := fmt.Sprintf("%s/%s", a.ID, m.newNoteID())
	build := func(text string) ahpwire.Action {
		return &ahpwire.AnnotationsEntrySet{AnnotationID: a.ID,
			Entry: ahpwire.AnnotationEntry{ID: id, Text: ahpwire.Plain(text), Meta: ahpwire.AuthorMeta("user")}}
	}
	m.overlays = append(m.overlays, dialog.NewComment(m.c.KM.SignIn, m.c.Dispatch, &m.c.Styles, m.notesChannel(),
		"Reply on "+ahpwire.AnnotationPlace(a), build))
	return nil
}

// resolveOnFocus resolves the focused turn's newest open comment, or
// reopens its newest when all are resolved.
func (m *Model) resolveOnFocus() tea.Cmd {
	a, ok := m.newestNote(true)
	if !ok {
		if a, ok = m.newestNote(false); !ok {
			return uikit.Notice("no comment on this turn — m writes one", false)
		}
	}
	what := "resolve comment"
	if a.Resolved {
		what = "reopen comment"
	}
	return m.c.Dispatch(m.notesChannel(), &ahpwire.AnnotationsUpdated{AnnotationID: a.ID, Resolved: ahpwire.Ptr(!a.Resolved)}, what)
}

// sendComments puts the open comments into the composer as the next
// prompt (the draft, if any, stays below them).
func (m *Model) sendComments() tea.Cmd {
	prompt := ahpwire.ReviewPrompt(m.c.Channels.NotesOf(m.chat.Session))
	if prompt == "" {
		return uikit.Notice("no open review comments to send", false)
	}
	c := m.chat
	if draft := c.Composer.Value(); draft != "" {
		prompt += "\n" + draft
	}
	c.Composer.SetValue(prompt)
	c.Relayout()
	return tea.Batch(c.SetFocus(chat.FocusComposer),
		uikit.Notice("the open comments are in the composer — "+m.c.KM.Composer.Send.Help().Key+" sends them", false))
}

// notesMoved redraws the transcript when the session's comments changed.
func (m *Model) notesMoved(channel string) {
	if _, ok := ahpwire.AnnotationsSession(channel); ok && m.chat != nil {
		m.chat.NotesChanged()
	}
}
