package app

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// Review comments and file watches (issue 31) are side channels too: the
// open session's annotations channel (<session>/annotations), followed
// while its chat is on screen, and a resource watch of the session's
// directory, held while the changes view is open.

// Notes is the open session's annotations channel.
type Notes struct {
	URI   string
	State ahpwire.AnnotationsState
	Ready bool // the snapshot arrived
}

// Watch is the changes view's resource watch: what changed on disk since
// it was opened, newest last.
type Watch struct {
	URI     string // the ahp-resource-watch: channel ("" until created)
	Root    string // the watched directory (file: URI)
	Changed []ahpwire.ResourceChange
	Err     string // why it could not be created
}

// MaxWatchChanges bounds the changes a Watch remembers.
const MaxWatchChanges = 200

// WatchCreator is implemented by backends that can ask for resource
// watches (*ahpclient.Client does).
type WatchCreator interface {
	CreateResourceWatch(ctx context.Context, p ahpwire.CreateResourceWatchParams) (string, error)
}

var _ WatchCreator = (*ahpclient.Client)(nil)

// WatchCreatedMsg carries createResourceWatch's answer.
type WatchCreatedMsg struct {
	Root, URI string
	Err       error
}

// isNotesURI and isWatchURI name the two kinds.
func isNotesURI(uri string) bool { _, ok := ahpwire.AnnotationsSession(uri); return ok }
func isWatchURI(uri string) bool { return strings.HasPrefix(uri, ahpwire.ResourceWatchScheme) }

// FollowNotes makes the subscribed annotations channel session's ("":
// none), subscribing and unsubscribing as needed.
func (x *Channels) FollowNotes(session string) tea.Cmd {
	uri := ""
	if session != "" {
		uri = ahpwire.AnnotationsURI(session)
	}
	if x.Notes != nil && x.Notes.URI == uri {
		return nil
	}
	var cmds []tea.Cmd
	if x.Notes != nil {
		cmds = append(cmds, Unsubscribe(x.c.Ctx, x.c.Backend, x.Notes.URI))
		x.c.Mirror.Drop(x.Notes.URI)
		x.Notes = nil
	}
	if uri != "" {
		x.Notes = &Notes{URI: uri}
		cmds = append(cmds, Subscribe(x.c.Ctx, x.c.Backend, uri, 0))
	}
	return tea.Batch(cmds...)
}

// NotesOf returns the open session's annotations (nil until they arrived).
func (x *Channels) NotesOf(session string) []ahpwire.Annotation {
	if x.Notes == nil || !x.Notes.Ready || x.Notes.URI != ahpwire.AnnotationsURI(session) {
		return nil
	}
	return x.Notes.State.Annotations
}

// notesByTurn groups the annotations by the turn they are anchored to.
func (x *Channels) notesByTurn() map[string][]ahpwire.Annotation {
	if x.Notes == nil || !x.Notes.Ready || len(x.Notes.State.Annotations) == 0 {
		return nil
	}
	out := map[string][]ahpwire.Annotation{}
	for _, a := range x.Notes.State.Annotations {
		if t := a.Turn(); t != "" {
			out[t] = append(out[t], a)
		}
	}
	return out
}

// StartWatch creates a watch of root (a file: URI) for the changes view,
// replacing the one held; without a backend that can, it records why.
func (x *Channels) StartWatch(root string) tea.Cmd {
	cmd := x.StopWatch()
	wc, ok := x.c.Backend.(WatchCreator)
	if !ok || root == "" {
		x.Watch = &Watch{Root: root, Err: "this connection cannot watch files"}
		return cmd
	}
	x.Watch = &Watch{Root: root}
	ctx := x.c.Ctx
	create := func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		uri, err := wc.CreateResourceWatch(ctx, ahpwire.CreateResourceWatchParams{URI: root, Recursive: true,
			Excludes: &ahpwire.StringList{Items: []string{"**/.git/**", "**/node_modules/**"}}})
		return WatchCreatedMsg{Root: root, URI: uri, Err: err}
	}
	return tea.Batch(cmd, create)
}

// OnWatchCreated subscribes to a created watch (or records why there is
// none); an answer for a watch no longer wanted is let go.
func (x *Channels) OnWatchCreated(msg WatchCreatedMsg) tea.Cmd {
	if x.Watch == nil || x.Watch.Root != msg.Root || x.Watch.URI != "" {
		if msg.Err == nil && msg.URI != "" {
			return Unsubscribe(x.c.Ctx, x.c.Backend, msg.URI) // releases it on the host
		}
		return nil
	}
	if msg.Err != nil {
		x.Watch.Err = ErrText(msg.Err)
		return nil
	}
	x.Watch.URI = msg.URI
	return Subscribe(x.c.Ctx, x.c.Backend, msg.URI, 0)
}

// StopWatch releases the changes view's watch.
func (x *Channels) StopWatch() tea.Cmd {
	w := x.Watch
	x.Watch = nil
	if w == nil || w.URI == "" {
		return nil
	}
	x.c.Mirror.Drop(w.URI)
	return Unsubscribe(x.c.Ctx, x.c.Backend, w.URI)
}

// notesOrWatch reports the annotations channel or the watch followed.
func (x *Channels) notesOrWatch(uri string) bool {
	return (x.Notes != nil && x.Notes.URI == uri) || (x.Watch != nil && x.Watch.URI != "" && x.Watch.URI == uri)
}

// onNotes keeps the annotations the Mirror holds after a snapshot or an
// envelope of the followed channel (ch).
func (x *Channels) onNotes(ch ahpstate.Change) {
	if x.Notes == nil || x.Notes.URI != ch.Channel {
		return
	}
	if _, st, ok := ch.Annotations(); ok {
		x.Notes.State, x.Notes.Ready = st, true
	}
}

// onWatchEnvelope remembers the watch's changes (bounded) and drops the
// fetched contents of changed files so they load again.
func (x *Channels) onWatchEnvelope(env ahpwire.ActionEnvelope) {
	a, ok := env.Action.(*ahpwire.ResourceWatchChanged)
	if !ok || x.Watch == nil || x.Watch.URI != env.Channel {
		return
	}
	for _, c := range a.Changes.Items {
		x.Watch.Changed = append(x.Watch.Changed, c)
		x.Loader.Forget(c.URI)
	}
	if n := len(x.Watch.Changed); n > MaxWatchChanges {
		x.Watch.Changed = append([]ahpwire.ResourceChange(nil), x.Watch.Changed[n-MaxWatchChanges:]...)
	}
}
