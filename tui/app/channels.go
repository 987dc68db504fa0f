package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/resload"
)

// Changeset is uri's subscription (dialog.ChangeSource): its state (the
// Mirror's), whether its snapshot arrived, why it failed; ok is false when
// not subscribed.
func (x *Channels) Changeset(uri string) (st ahpwire.ChangesetState, ready bool, failed string, ok bool) {
	cs := x.Changesets[uri]
	if cs == nil {
		return ahpwire.ChangesetState{}, false, "", false
	}
	st, _ = x.c.Mirror.Changeset(uri)
	return st, cs.ready, cs.err, true
}

// AddViewOpts adds the live terminals, fetched contents and loading states.
func (x *Channels) AddViewOpts(v *render.ViewOpts) { x.ViewOpts(v) }

// Channel schemes beyond root/session/chat.
const (
	terminalScheme  = ahpwire.TerminalScheme
	changesetScheme = ahpwire.ChangesetScheme
)

// ResourceReader is implemented by backends that can read content
// references (*ahpclient.Client does); others show references as not
// loaded.
type ResourceReader interface {
	ResourceRead(ctx context.Context, uri, encoding string) (ahpclient.Resource, error)
}

// ResourceLoadedMsg carries one finished content-reference fetch.
type ResourceLoadedMsg struct{ Res resload.Result }

// termSub is one subscribed terminal channel.
type termSub struct {
	// Live is the terminal's emulator: a view of the Mirror's terminal
	// state, moved with each state the Mirror reduces (it keeps the
	// screen grid the state's output draws).
	Live  *render.LiveTerminal
	pty   bool
	Ready bool // the snapshot arrived
}

// csSub is one subscribed changeset channel (its state is the Mirror's).
type csSub struct {
	ready bool
	err   string // why the subscription failed ("" = fine)
}

// Channels is the client side of terminals, changesets and content
// references, and only its bookkeeping: which terminal/changeset channels
// are subscribed (those on screen, or pinned by an open view), whether
// their snapshots arrived, the live terminals' emulators and scroll, and
// the one resource loader. Their states are the Mirror's (App.Mirror). It
// is owned by the root model and used from Update only.
type Channels struct {
	c          *App
	Terms      map[string]*termSub
	Changesets map[string]*csSub
	pinned     map[string]int // channels an open view keeps subscribed
	Loader     *resload.Loader
	Scroll     map[string]int // expanded terminals' scroll, by URI
	// rejected is why the host refused this client's last terminal
	// claim, by URI (shown by the terminal viewer).
	rejected map[string]string
	// Notes is the open session's annotations channel, Watch the changes
	// view's resource watch (notes.go); nil when none.
	Notes *Notes
	Watch *Watch
}

// NewChannels makes the side channels of c's backend (with the one
// content-reference loader).
func NewChannels(c *App) *Channels {
	x := &Channels{c: c, Terms: map[string]*termSub{}, Changesets: map[string]*csSub{},
		pinned: map[string]int{}, Scroll: map[string]int{}}
	var read resload.Reader
	if rr, ok := c.Backend.(ResourceReader); ok {
		read = resourceReader(rr)
	} else {
		read = func(context.Context, string) (resload.Content, error) {
			return resload.Content{}, ErrNoResources
		}
	}
	x.Loader = resload.New(0, read)
	return x
}

// resourceReader is the loader's reader on rr: a content the host does
// not have reads as ErrGone.
func resourceReader(rr ResourceReader) resload.Reader {
	return func(ctx context.Context, uri string) (resload.Content, error) {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		r, err := rr.ResourceRead(ctx, uri, "")
		var re *ahpwire.RPCError
		if errors.As(err, &re) && re.Code == ahpwire.CodeNotFound {
			err = ErrGone
		}
		return resload.Content{Data: r.Data, ContentType: r.ContentType}, err
	}
}

// ErrGone is the loader's answer for a content the host no longer has.
var ErrGone = ErrString("the host no longer has this content (it was removed with its session, " +
	"or to keep the host's saved state within its size budget)")

// ErrNoResources is the loader's answer when the backend cannot read.
var ErrNoResources = ErrString("this connection cannot read content references")

// ErrString is an error that is only its text.
type ErrString string

// Error is the text.
func (e ErrString) Error() string { return string(e) }

// IsSideChannel reports terminal, changeset, annotations and
// resource-watch channels.
func IsSideChannel(uri string) bool {
	return strings.HasPrefix(uri, terminalScheme) || strings.HasPrefix(uri, changesetScheme) ||
		isNotesURI(uri) || isWatchURI(uri)
}

// ViewOpts adds the live terminals, fetched contents and loading states.
func (x *Channels) ViewOpts(v *render.ViewOpts) {
	if len(x.Terms) > 0 {
		v.Terminals = make(map[string]*render.LiveTerminal, len(x.Terms))
		for u, t := range x.Terms {
			if t.Ready {
				v.Terminals[u] = t.Live
			}
		}
	}
	v.TermScroll = x.Scroll
	v.Resources = x.Loader.Texts()
	v.Loading = x.Loader.Loading()
	v.Notes = x.notesByTurn()
}

// Subscribed reports whether uri is a terminal or changeset channel this
// client follows (a snapshot of another is not kept).
func (x *Channels) Subscribed(uri string) bool {
	return x.Terms[uri] != nil || x.Changesets[uri] != nil || x.notesOrWatch(uri)
}

// OnSnapshot takes a terminal or changeset snapshot the Mirror loaded (ch).
func (x *Channels) OnSnapshot(ch ahpstate.Change) {
	if x.notesOrWatch(ch.Channel) {
		x.onNotes(ch) // notes.go
		return
	}
	if t := x.Terms[ch.Channel]; t != nil {
		_, st, ok := ch.Terminal()
		if !ok {
			return
		}
		if t.Live == nil {
			t.Live = render.NewLiveTerminal(st, t.pty)
		} else {
			t.Live.Reset(st)
		}
		t.Ready = true
		return
	}
	if cs := x.Changesets[ch.Channel]; cs != nil {
		cs.ready = ch.Known
	}
}

// OnEnvelope takes a terminal or changeset envelope the Mirror applied
// (ch): the live terminal shows the reduced state; a claim the host
// rejected is kept for the terminal viewer.
func (x *Channels) OnEnvelope(env ahpwire.ActionEnvelope, ch ahpstate.Change) {
	if env.RejectionReason != "" {
		if _, ok := env.Action.(*ahpwire.TerminalClaimed); ok {
			if x.rejected == nil {
				x.rejected = map[string]string{}
			}
			x.rejected[env.Channel] = env.RejectionReason
		}
		return
	}
	if x.notesOrWatch(env.Channel) {
		x.onNotes(ch) // notes.go
		x.onWatchEnvelope(env)
		return
	}
	if t := x.Terms[env.Channel]; t != nil && t.Ready {
		if _, st, ok := ch.Terminal(); ok {
			t.Live.Apply(st, env.Action)
		}
	}
}

// Follow makes the subscribed terminal channels exactly those in want
// (with their pty flag) plus the pinned ones: it subscribes the new ones
// and unsubscribes the rest.
func (x *Channels) Follow(want map[string]bool) tea.Cmd {
	var cmds []tea.Cmd
	for uri, pty := range want {
		if x.Terms[uri] == nil {
			x.Terms[uri] = &termSub{pty: pty}
			cmds = append(cmds, Subscribe(x.c.Ctx, x.c.Backend, uri, 0))
		}
	}
	var drop []string
	for uri := range x.Terms {
		if _, ok := want[uri]; !ok && x.pinned[uri] == 0 {
			delete(x.Terms, uri)
			delete(x.Scroll, uri)
			x.c.Mirror.Drop(uri)
			drop = append(drop, uri)
		}
	}
	if len(drop) > 0 {
		cmds = append(cmds, Unsubscribe(x.c.Ctx, x.c.Backend, drop...))
	}
	return tea.Batch(cmds...)
}

// Pin keeps channel subscribed while a view shows it (subscribing when
// needed).
func (x *Channels) Pin(uri string, pty bool) tea.Cmd {
	x.pinned[uri]++
	if strings.HasPrefix(uri, changesetScheme) {
		if x.Changesets[uri] == nil {
			x.Changesets[uri] = &csSub{}
			return Subscribe(x.c.Ctx, x.c.Backend, uri, 0)
		}
		return nil
	}
	if x.Terms[uri] == nil {
		x.Terms[uri] = &termSub{pty: pty}
		return Subscribe(x.c.Ctx, x.c.Backend, uri, 0)
	}
	return nil
}

// Unpin lets go of a channel pin kept.
func (x *Channels) Unpin(uri string) tea.Cmd {
	if x.pinned[uri] > 1 {
		x.pinned[uri]--
		return nil
	}
	delete(x.pinned, uri)
	if strings.HasPrefix(uri, changesetScheme) {
		delete(x.Changesets, uri)
		x.c.Mirror.Drop(uri)
		return Unsubscribe(x.c.Ctx, x.c.Backend, uri)
	}
	return nil // terminals are dropped by the next follow when not on screen
}

// Lost handles a terminal or changeset channel the host could not resume:
// it is subscribed again (a fresh snapshot replaces the state) while still
// followed, and forgotten otherwise.
func (x *Channels) Lost(uri string) tea.Cmd {
	if t := x.Terms[uri]; t != nil {
		t.Ready = false
		return Subscribe(x.c.Ctx, x.c.Backend, uri, 0)
	}
	if cs := x.Changesets[uri]; cs != nil {
		cs.ready = false
		return Subscribe(x.c.Ctx, x.c.Backend, uri, 0)
	}
	if x.Notes != nil && x.Notes.URI == uri {
		x.Notes.Ready = false
		return Subscribe(x.c.Ctx, x.c.Backend, uri, 0)
	}
	if x.Watch != nil && x.Watch.URI == uri { // released by the host: make another
		return x.StartWatch(x.Watch.Root)
	}
	return nil
}

// SubscribeFailed records a failed terminal or changeset subscription (it
// is not retried while the entry stays).
func (x *Channels) SubscribeFailed(uri string, err error) {
	x.c.Log.Info("channel unavailable", "channel", uri, "err", err)
	if cs := x.Changesets[uri]; cs != nil {
		cs.err = ErrText(err)
	}
}

// Load starts fetches for the content URIs that are visible (and cancels
// the rest); hint gives advertised sizes.
func (x *Channels) Load(uris []string, hint func(string) int64) tea.Cmd {
	fs := x.Loader.Want(uris, hint)
	if len(fs) == 0 {
		return nil
	}
	cmds := make([]tea.Cmd, len(fs))
	for i, f := range fs {
		cmds[i] = func() tea.Msg { return ResourceLoadedMsg{Res: f()} }
	}
	return tea.Batch(cmds...)
}

// RootTerminals is the host's terminal catalogue (dialog.TermSource), read
// from the Mirror's root state.
func (x *Channels) RootTerminals() []ahpwire.TerminalInfo {
	rs, _ := x.c.Mirror.Root()
	var out []ahpwire.TerminalInfo
	for _, r := range rs.Terminals {
		var ti ahpwire.TerminalInfo
		if json.Unmarshal(r, &ti) == nil && strings.HasPrefix(ti.Resource, terminalScheme) {
			out = append(out, ti)
		}
	}
	return out
}

// LiveTerminal is uri's emulator once its snapshot arrived.
func (x *Channels) LiveTerminal(uri string) *render.LiveTerminal {
	if t := x.Terms[uri]; t != nil && t.Ready {
		return t.Live
	}
	return nil
}

// ClaimRejected is why the host refused this client's last claim of uri.
func (x *Channels) ClaimRejected(uri string) string { return x.rejected[uri] }

// ClearClaimRejected forgets a refused claim of uri.
func (x *Channels) ClearClaimRejected(uri string) { delete(x.rejected, uri) }
