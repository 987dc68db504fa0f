package tui

import (
	"context"
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/resload"
)

// Channel schemes beyond root/session/chat.
const (
	terminalScheme  = ahpwire.TerminalScheme
	changesetScheme = ahpwire.ChangesetScheme
)

// resourceReader is implemented by backends that can read content
// references (*ahpclient.Client does); others show references as not
// loaded.
type resourceReader interface {
	ResourceRead(ctx context.Context, uri, encoding string) (ahpclient.Resource, error)
}

// resourceLoadedMsg carries one finished content-reference fetch.
type resourceLoadedMsg struct{ res resload.Result }

// termSub is one subscribed terminal channel.
type termSub struct {
	lt    *render.LiveTerminal
	pty   bool
	ready bool // the snapshot arrived
}

// csSub is one subscribed changeset channel.
type csSub struct {
	state ahpwire.ChangesetState
	ready bool
	err   string // why the subscription failed ("" = fine)
}

// extChannels is the client side of terminals, changesets and content
// references: which terminal/changeset channels are subscribed (those on
// screen, or pinned by an open view), their reduced states, the root's
// terminal catalogue, and the one resource loader. It is owned by the root
// model and used from Update only.
type extChannels struct {
	c          *common
	terms      map[string]*termSub
	changesets map[string]*csSub
	pinned     map[string]int // channels an open view keeps subscribed
	rootTerms  []ahpwire.TerminalInfo
	chatSets   []ahpwire.Changeset // the open chat's changeset catalogue
	loader     *resload.Loader
	scroll     map[string]int // expanded terminals' scroll, by URI
	// claimRejected is why the host refused this client's last terminal
	// claim, by URI (shown by the terminal viewer).
	claimRejected map[string]string
}

func newExtChannels(c *common) *extChannels {
	x := &extChannels{c: c, terms: map[string]*termSub{}, changesets: map[string]*csSub{},
		pinned: map[string]int{}, scroll: map[string]int{}}
	var read resload.Reader
	if rr, ok := c.backend.(resourceReader); ok {
		read = func(ctx context.Context, uri string) (resload.Content, error) {
			ctx, cancel := reqCtx(ctx)
			defer cancel()
			r, err := rr.ResourceRead(ctx, uri, "")
			return resload.Content{Data: r.Data, ContentType: r.ContentType}, err
		}
	} else {
		read = func(context.Context, string) (resload.Content, error) {
			return resload.Content{}, errNoResources
		}
	}
	x.loader = resload.New(0, read)
	return x
}

// errNoResources is the loader's answer when the backend cannot read.
var errNoResources = errString("this connection cannot read content references")

type errString string

func (e errString) Error() string { return string(e) }

// isExtChannel reports terminal and changeset channels.
func isExtChannel(uri string) bool {
	return strings.HasPrefix(uri, terminalScheme) || strings.HasPrefix(uri, changesetScheme)
}

// viewOpts adds the live terminals, fetched contents and loading states.
func (x *extChannels) viewOpts(v *render.ViewOpts) {
	if len(x.terms) > 0 {
		v.Terminals = make(map[string]*render.LiveTerminal, len(x.terms))
		for u, t := range x.terms {
			if t.ready {
				v.Terminals[u] = t.lt
			}
		}
	}
	v.TermScroll = x.scroll
	v.Resources = x.loader.Texts()
	v.Loading = x.loader.Loading()
}

// onSnapshot applies a terminal or changeset snapshot.
func (x *extChannels) onSnapshot(s ahpwire.Snapshot) {
	switch {
	case strings.HasPrefix(s.Resource, terminalScheme):
		t := x.terms[s.Resource]
		if t == nil {
			return
		}
		st, err := ahpwire.DecodeTerminalState(s.State)
		if err != nil {
			x.c.log.Warn("terminal snapshot", "channel", s.Resource, "err", err)
			return
		}
		st = ahpstate.BoundTerminal(st) // title and output caps, as for actions
		if t.lt == nil {
			t.lt = render.NewLiveTerminal(st, t.pty)
		} else {
			t.lt.Reset(st)
		}
		t.ready = true
	case strings.HasPrefix(s.Resource, changesetScheme):
		cs := x.changesets[s.Resource]
		if cs == nil {
			return
		}
		st, err := ahpwire.DecodeChangesetState(s.State)
		if err != nil {
			x.c.log.Warn("changeset snapshot", "channel", s.Resource, "err", err)
			return
		}
		cs.state, cs.ready = st, true
	}
}

// onEnvelope applies a terminal or changeset action (rejected echoes are
// not applied).
func (x *extChannels) onEnvelope(env ahpwire.ActionEnvelope) {
	if env.RejectionReason != "" {
		if _, ok := env.Action.(*ahpwire.TerminalClaimed); ok {
			if x.claimRejected == nil {
				x.claimRejected = map[string]string{}
			}
			x.claimRejected[env.Channel] = env.RejectionReason
		}
		return
	}
	if t := x.terms[env.Channel]; t != nil && t.ready {
		t.lt.Apply(ahpstate.ReduceTerminal(t.lt.State(), env.Action), env.Action)
		return
	}
	if cs := x.changesets[env.Channel]; cs != nil && cs.ready {
		cs.state = ahpstate.ReduceChangeset(cs.state, env.Action)
	}
}

// onRootTerminals replaces the root terminal catalogue.
func (x *extChannels) onRootTerminals(raw []json.RawMessage) {
	x.rootTerms = x.rootTerms[:0]
	for _, r := range raw {
		var ti ahpwire.TerminalInfo
		if json.Unmarshal(r, &ti) == nil && strings.HasPrefix(ti.Resource, terminalScheme) {
			x.rootTerms = append(x.rootTerms, ti)
		}
	}
}

// follow makes the subscribed terminal channels exactly those in want
// (with their pty flag) plus the pinned ones: it subscribes the new ones
// and unsubscribes the rest.
func (x *extChannels) follow(want map[string]bool) tea.Cmd {
	var cmds []tea.Cmd
	for uri, pty := range want {
		if x.terms[uri] == nil {
			x.terms[uri] = &termSub{pty: pty}
			cmds = append(cmds, subscribe(x.c.ctx, x.c.backend, uri, 0))
		}
	}
	var drop []string
	for uri := range x.terms {
		if _, ok := want[uri]; !ok && x.pinned[uri] == 0 {
			delete(x.terms, uri)
			delete(x.scroll, uri)
			drop = append(drop, uri)
		}
	}
	if len(drop) > 0 {
		cmds = append(cmds, unsubscribe(x.c.ctx, x.c.backend, drop...))
	}
	return tea.Batch(cmds...)
}

// pin keeps channel subscribed while a view shows it (subscribing when
// needed); unpin releases it.
func (x *extChannels) pin(uri string, pty bool) tea.Cmd {
	x.pinned[uri]++
	if strings.HasPrefix(uri, changesetScheme) {
		if x.changesets[uri] == nil {
			x.changesets[uri] = &csSub{}
			return subscribe(x.c.ctx, x.c.backend, uri, 0)
		}
		return nil
	}
	if x.terms[uri] == nil {
		x.terms[uri] = &termSub{pty: pty}
		return subscribe(x.c.ctx, x.c.backend, uri, 0)
	}
	return nil
}

func (x *extChannels) unpin(uri string) tea.Cmd {
	if x.pinned[uri] > 1 {
		x.pinned[uri]--
		return nil
	}
	delete(x.pinned, uri)
	if strings.HasPrefix(uri, changesetScheme) {
		delete(x.changesets, uri)
		return unsubscribe(x.c.ctx, x.c.backend, uri)
	}
	return nil // terminals are dropped by the next follow when not on screen
}

// lost handles a terminal or changeset channel the host could not resume:
// it is subscribed again (a fresh snapshot replaces the state) while still
// followed, and forgotten otherwise.
func (x *extChannels) lost(uri string) tea.Cmd {
	if t := x.terms[uri]; t != nil {
		t.ready = false
		return subscribe(x.c.ctx, x.c.backend, uri, 0)
	}
	if cs := x.changesets[uri]; cs != nil {
		cs.ready = false
		return subscribe(x.c.ctx, x.c.backend, uri, 0)
	}
	return nil
}

// subscribeFailed records a failed terminal or changeset subscription (it
// is not retried while the entry stays).
func (x *extChannels) subscribeFailed(uri string, err error) {
	x.c.log.Info("channel unavailable", "channel", uri, "err", err)
	if cs := x.changesets[uri]; cs != nil {
		cs.err = errText(err)
	}
}

// load starts fetches for the content URIs that are visible (and cancels
// the rest); hint gives advertised sizes.
func (x *extChannels) load(uris []string, hint func(string) int64) tea.Cmd {
	fs := x.loader.Want(uris, hint)
	if len(fs) == 0 {
		return nil
	}
	cmds := make([]tea.Cmd, len(fs))
	for i, f := range fs {
		cmds[i] = func() tea.Msg { return resourceLoadedMsg{res: f()} }
	}
	return tea.Batch(cmds...)
}
