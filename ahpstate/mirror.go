package ahpstate

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Channel kinds a Mirror keeps besides ScopeRoot, ScopeSession and
// ScopeChat (see MirrorKind).
const (
	KindTerminal      = "terminal"
	KindChangeset     = "changeset"
	KindAnnotations   = "annotations"   // ahp-session:/<uuid>/annotations
	KindResourceWatch = "resourceWatch" // ahp-resource-watch:/<id>
)

// MirrorKind returns the kind of channel a URI names: ScopeRoot,
// ScopeSession, ScopeChat, KindTerminal, KindChangeset, KindAnnotations,
// KindResourceWatch, or "" for any other scheme.
func MirrorKind(uri string) string {
	switch {
	case strings.HasPrefix(uri, ahpwire.TerminalScheme):
		return KindTerminal
	case strings.HasPrefix(uri, ahpwire.ChangesetScheme):
		return KindChangeset
	case strings.HasPrefix(uri, ahpwire.ResourceWatchScheme):
		return KindResourceWatch
	}
	if _, ok := ahpwire.AnnotationsSession(uri); ok {
		return KindAnnotations
	}
	return ChannelKind(uri)
}

// Mirror is a client's copy of a host's AHP state: one state per
// subscribed channel (the root, sessions, chats, terminals, changesets),
// replaced by snapshots and moved on by action envelopes through this
// package's reducers, the only code that knows AHP's rules. A client keeps
// one Mirror per host connection and feeds it every snapshot and envelope
// in stream order (ahpclient delivers them so); what it shows is read from
// the Mirror, never restated from raw actions.
//
// Load and Apply return a Change with the channel's state before and after,
// for consumers that need a diff (the chat transcript's reducer.Derive).
// States are values shared copy-on-write with the reducers, so keeping a
// Change costs no copy. A Mirror is not safe for concurrent use.
type Mirror struct {
	r     Reducer
	kinds map[string]bool // kept kinds; nil keeps every kind
	root  *ahpwire.RootState
	ss    map[string]ahpwire.SessionState
	cs    map[string]ahpwire.ChatState
	ts    map[string]ahpwire.TerminalState
	sets  map[string]ahpwire.ChangesetState
	anns  map[string]ahpwire.AnnotationsState
	rws   map[string]ahpwire.ResourceWatchState
	named map[string]string // kinds given by Expect (URIs of another dialect)
}

// NewMirror returns an empty Mirror applying actions with r. kinds limits
// the channel kinds it keeps (MirrorKind values; none: every kind):
// snapshots and envelopes of other kinds are reported as not Known.
func NewMirror(r Reducer, kinds ...string) *Mirror {
	m := &Mirror{r: r, ss: map[string]ahpwire.SessionState{}, cs: map[string]ahpwire.ChatState{},
		ts: map[string]ahpwire.TerminalState{}, sets: map[string]ahpwire.ChangesetState{},
		anns: map[string]ahpwire.AnnotationsState{}, rws: map[string]ahpwire.ResourceWatchState{}}
	if len(kinds) > 0 {
		m.kinds = map[string]bool{}
		for _, k := range kinds {
			m.kinds[k] = true
		}
	}
	return m
}

// Change is what one snapshot or envelope did to one channel of a Mirror.
type Change struct {
	// Channel is the channel's URI and Kind its MirrorKind.
	Channel, Kind string
	// Known is true when the Mirror holds the channel (it was loaded from
	// a snapshot and not dropped); Before and After are then its states
	// (ahpwire.RootState, SessionState, ChatState, TerminalState or
	// ChangesetState), equal when nothing applied.
	Known bool
	// Before is nil for a snapshot of a channel the Mirror did not hold.
	Before, After any
}

// Session returns a session channel's states before and after the change;
// ok is false for another kind or an unknown channel.
func (c Change) Session() (before, after ahpwire.SessionState, ok bool) {
	return pair[ahpwire.SessionState](c)
}

// Chat returns a chat channel's states before and after the change.
func (c Change) Chat() (before, after ahpwire.ChatState, ok bool) { return pair[ahpwire.ChatState](c) }

// Root returns the root channel's states before and after the change.
func (c Change) Root() (before, after ahpwire.RootState, ok bool) { return pair[ahpwire.RootState](c) }

// Terminal returns a terminal channel's states before and after the change.
func (c Change) Terminal() (before, after ahpwire.TerminalState, ok bool) {
	return pair[ahpwire.TerminalState](c)
}

// Annotations returns an annotations channel's states before and after the
// change.
func (c Change) Annotations() (before, after ahpwire.AnnotationsState, ok bool) {
	return pair[ahpwire.AnnotationsState](c)
}

// Changeset returns a changeset channel's states before and after the change.
func (c Change) Changeset() (before, after ahpwire.ChangesetState, ok bool) {
	return pair[ahpwire.ChangesetState](c)
}

// pair type-asserts a Change's states (a missing Before is S's zero value).
func pair[S any](c Change) (before, after S, ok bool) {
	after, ok = c.After.(S)
	if !ok || !c.Known {
		var zero S
		return zero, zero, false
	}
	before, _ = c.Before.(S)
	return before, after, true
}

// keeps reports whether the Mirror keeps channels of kind k.
// Expect names the kind of a channel the consumer subscribed as that kind
// (ScopeSession, ScopeChat, …) whatever its URI's scheme: hosts of another
// dialect publish sessions as "<provider>:/<id>", which MirrorKind cannot
// tell. Later snapshots and envelopes of uri are kept as kind.
func (m *Mirror) Expect(uri, kind string) {
	if m.named == nil {
		m.named = map[string]string{}
	}
	m.named[uri] = kind
}

// KindOf is the kind of uri: as Expect named it, else by its scheme
// (MirrorKind).
func (m *Mirror) KindOf(uri string) string {
	if k, ok := m.named[uri]; ok {
		return k
	}
	return MirrorKind(uri)
}

func (m *Mirror) keeps(k string) bool { return k != "" && (m.kinds == nil || m.kinds[k]) }

// Load replaces a channel's state with a snapshot (the Mirror holds the
// channel from now on). A snapshot of a kind the Mirror does not keep is
// ignored (Known false); one whose state does not decode leaves the
// channel as it was and returns the error.
func (m *Mirror) Load(s ahpwire.Snapshot) (Change, error) {
	kind := m.KindOf(s.Resource)
	if !m.keeps(kind) {
		return Change{Channel: s.Resource, Kind: kind}, nil
	}
	st, err := DecodeState(kind, s.State)
	if err != nil {
		return m.current(s.Resource), fmt.Errorf("ahpstate: snapshot of %s: %w", s.Resource, err)
	}
	return m.LoadState(s.Resource, st)
}

// DecodeState decodes a snapshot's state for a channel of kind (a
// MirrorKind value): an ahpwire.RootState, SessionState, ChatState,
// TerminalState (bounded as its actions are, BoundTerminal),
// ChangesetState, AnnotationsState or ResourceWatchState. A client decodes a large snapshot with it off its UI
// goroutine and hands the state to LoadState.
func DecodeState(kind string, raw []byte) (any, error) {
	switch kind {
	case ScopeRoot:
		return ahpwire.DecodeRootState(raw)
	case ScopeSession:
		return ahpwire.DecodeSessionState(raw)
	case ScopeChat:
		return ahpwire.DecodeChatState(raw)
	case KindTerminal:
		st, err := ahpwire.DecodeTerminalState(raw)
		return BoundTerminal(st), err
	case KindChangeset:
		return ahpwire.DecodeChangesetState(raw)
	case KindAnnotations:
		return ahpwire.DecodeAnnotationsState(raw)
	case KindResourceWatch:
		return ahpwire.DecodeResourceWatchState(raw)
	}
	return nil, fmt.Errorf("no state for channel kind %q", kind)
}

// LoadState replaces a channel's state with st, a decoded snapshot state
// (DecodeState's) of the channel's kind, or the client's own form of the
// same state (a chat whose long replies it holds by reference, as the host
// does). A state of another kind than the channel's is refused; a kind the
// Mirror does not keep is ignored (Known false).
func (m *Mirror) LoadState(uri string, st any) (Change, error) {
	ch := Change{Channel: uri, Kind: m.KindOf(uri)}
	if !m.keeps(ch.Kind) {
		return ch, nil
	}
	ok := false
	switch st := st.(type) {
	case ahpwire.RootState:
		if ok = ch.Kind == ScopeRoot; ok {
			if m.root != nil {
				ch.Before = *m.root
			}
			m.root, ch.After = &st, st
		}
	case ahpwire.SessionState:
		ok = ch.Kind == ScopeSession && loadInto(m.ss, &ch, st)
	case ahpwire.ChatState:
		ok = ch.Kind == ScopeChat && loadInto(m.cs, &ch, st)
	case ahpwire.TerminalState:
		ok = ch.Kind == KindTerminal && loadInto(m.ts, &ch, st)
	case ahpwire.ChangesetState:
		ok = ch.Kind == KindChangeset && loadInto(m.sets, &ch, st)
	case ahpwire.AnnotationsState:
		ok = ch.Kind == KindAnnotations && loadInto(m.anns, &ch, st)
	case ahpwire.ResourceWatchState:
		ok = ch.Kind == KindResourceWatch && loadInto(m.rws, &ch, st)
	}
	if !ok {
		return m.current(uri), fmt.Errorf("ahpstate: a %T is no state of %s channel %s", st, ch.Kind, uri)
	}
	ch.Known = true
	return ch, nil
}

// loadInto puts st into states[ch.Channel], recording before and after.
func loadInto[S any](states map[string]S, ch *Change, st S) bool {
	if old, ok := states[ch.Channel]; ok {
		ch.Before = old
	}
	states[ch.Channel], ch.After = st, st
	return true
}

// Apply applies an action envelope to its channel's state with the
// channel's reducer. An envelope of a channel the Mirror does not hold, one
// the host rejected and one without an action change nothing.
func (m *Mirror) Apply(env ahpwire.ActionEnvelope) Change {
	ch := m.current(env.Channel)
	if !ch.Known || env.RejectionReason != "" || isNil(env.Action) {
		return ch
	}
	a := env.Action
	switch ch.Kind {
	case ScopeRoot:
		st := m.r.Root(*m.root, a)
		m.root, ch.After = &st, st
	case ScopeSession:
		ch.After = reduceIn(m.ss, env.Channel, a, m.r.Session)
	case ScopeChat:
		ch.After = reduceIn(m.cs, env.Channel, a, m.r.Chat)
	case KindTerminal:
		ch.After = reduceIn(m.ts, env.Channel, a, ReduceTerminal)
	case KindChangeset:
		ch.After = reduceIn(m.sets, env.Channel, a, ReduceChangeset)
	case KindAnnotations:
		ch.After = reduceIn(m.anns, env.Channel, a, ReduceAnnotations)
	case KindResourceWatch:
		ch.After = reduceIn(m.rws, env.Channel, a, ReduceResourceWatch)
	}
	return ch
}

// reduceIn reduces states[uri] with a and returns the new state.
func reduceIn[S any](states map[string]S, uri string, a ahpwire.Action, reduce func(S, ahpwire.Action) S) S {
	st := reduce(states[uri], a)
	states[uri] = st
	return st
}

// current returns a Change that changes nothing: the channel's state as
// both Before and After (Known false when the Mirror does not hold it).
func (m *Mirror) current(uri string) Change {
	ch := Change{Channel: uri, Kind: m.KindOf(uri)}
	var st any
	switch ch.Kind {
	case ScopeRoot:
		if m.root != nil {
			st, ch.Known = *m.root, true
		}
	case ScopeSession:
		st, ch.Known = lookup(m.ss, uri)
	case ScopeChat:
		st, ch.Known = lookup(m.cs, uri)
	case KindTerminal:
		st, ch.Known = lookup(m.ts, uri)
	case KindChangeset:
		st, ch.Known = lookup(m.sets, uri)
	case KindAnnotations:
		st, ch.Known = lookup(m.anns, uri)
	case KindResourceWatch:
		st, ch.Known = lookup(m.rws, uri)
	}
	if ch.Known {
		ch.Before, ch.After = st, st
	}
	return ch
}

// lookup returns states[uri] as an any, and whether it is there.
func lookup[S any](states map[string]S, uri string) (any, bool) {
	st, ok := states[uri]
	return st, ok
}

// Drop forgets a channel (unsubscribed or lost); its envelopes are ignored
// until a snapshot loads it again.
func (m *Mirror) Drop(uri string) {
	switch m.KindOf(uri) {
	case ScopeRoot:
		m.root = nil
	case ScopeSession:
		delete(m.ss, uri)
	case ScopeChat:
		delete(m.cs, uri)
	case KindTerminal:
		delete(m.ts, uri)
	case KindChangeset:
		delete(m.sets, uri)
	case KindAnnotations:
		delete(m.anns, uri)
	case KindResourceWatch:
		delete(m.rws, uri)
	}
}

// Holds reports whether the Mirror holds a channel.
func (m *Mirror) Holds(uri string) bool { return m.current(uri).Known }

// Root returns the root state, and whether a snapshot loaded it.
func (m *Mirror) Root() (ahpwire.RootState, bool) {
	if m.root == nil {
		return ahpwire.RootState{}, false
	}
	return *m.root, true
}

// Session returns a session's state, and whether the Mirror holds it.
func (m *Mirror) Session(uri string) (ahpwire.SessionState, bool) { st, ok := m.ss[uri]; return st, ok }

// Chat returns a chat's state, and whether the Mirror holds it.
func (m *Mirror) Chat(uri string) (ahpwire.ChatState, bool) { st, ok := m.cs[uri]; return st, ok }

// Terminal returns a terminal's state, and whether the Mirror holds it.
func (m *Mirror) Terminal(uri string) (ahpwire.TerminalState, bool) {
	st, ok := m.ts[uri]
	return st, ok
}

// Changeset returns a changeset's state, and whether the Mirror holds it.
func (m *Mirror) Changeset(uri string) (ahpwire.ChangesetState, bool) {
	st, ok := m.sets[uri]
	return st, ok
}

// Annotations returns an annotations channel's state, and whether the
// Mirror holds it.
func (m *Mirror) Annotations(uri string) (ahpwire.AnnotationsState, bool) {
	st, ok := m.anns[uri]
	return st, ok
}

// ResourceWatch returns a resource-watch channel's state, and whether the
// Mirror holds it.
func (m *Mirror) ResourceWatch(uri string) (ahpwire.ResourceWatchState, bool) {
	st, ok := m.rws[uri]
	return st, ok
}
