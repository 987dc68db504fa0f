package ahphost

import (
	"slices"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// turnChannels implements agent.Channels for one turn run: every call takes
// the host lock and is dropped once the run was cancelled or superseded.
type turnChannels struct {
	h   *Host
	run *turnRun
}

var (
	_ agent.Channels      = turnChannels{}
	_ agent.ChannelReader = turnChannels{}
)

// locked runs fn with h.mu held while the run is live.
func (tc turnChannels) locked(fn func(s *store)) {
	tc.h.mu.Lock()
	defer tc.h.mu.Unlock()
	if tc.run.ctx.Err() != nil {
		return
	}
	fn(tc.h.st)
}

// OpenTerminal creates the terminal channel uri.
func (tc turnChannels) OpenTerminal(uri string, st ahpwire.TerminalState) {
	if extKind(uri) != chanTerminal {
		tc.h.log.Warn("agent opened a terminal with a bad URI; ignored", "uri", uri)
		return
	}
	tc.locked(func(s *store) { s.openTerminal(uri, st) })
}

// Terminal applies a terminal action.
func (tc turnChannels) Terminal(uri string, a ahpwire.Action) {
	if a == nil {
		return
	}
	tc.locked(func(s *store) { s.applyTerminal(uri, a, nil) })
}

// PutResource stores a resource.
func (tc turnChannels) PutResource(uri, contentType string, data []byte) {
	tc.locked(func(s *store) { s.putResource(uri, contentType, data) })
}

// Changeset creates or replaces a changeset channel.
func (tc turnChannels) Changeset(uri string, st ahpwire.ChangesetState, reviewable bool) {
	if extKind(uri) != chanChangeset {
		tc.h.log.Warn("agent set a changeset with a bad URI; ignored", "uri", uri)
		return
	}
	tc.locked(func(s *store) { s.setChangeset(uri, st, reviewable) })
}

// ChangesetState returns the state of changeset uri, if it exists.
func (tc turnChannels) ChangesetState(uri string) (st ahpwire.ChangesetState, ok bool) {
	tc.locked(func(s *store) {
		if c := s.ext.changesets[uri]; c != nil {
			st, ok = c.state, true
		}
	})
	return st, ok
}

// ChatTurns returns a copy of the chat's finished turns (their parts are
// shared: a finished turn's parts are replaced, never changed in place).
func (tc turnChannels) ChatTurns(chat string) (turns []ahpwire.Turn) {
	tc.locked(func(s *store) {
		if ce := s.chats[chat]; ce != nil {
			turns = slices.Clone(ce.state.Turns)
		}
	})
	return turns
}

// ReadResource returns the content stored under uri (from memory, its
// spill file or the state database), if any.
func (tc turnChannels) ReadResource(uri string) ([]byte, bool) {
	var it resource
	var ok bool
	tc.locked(func(s *store) { it, ok = s.ext.resources.get(uri) })
	if !ok {
		return nil, false
	}
	b, err := it.load() // (outside h.mu, as resourceRead)
	if err != nil {
		tc.h.log.Warn("reading a stored resource back for the agent", "uri", truncate(uri, 200), "err", err)
		return nil, false
	}
	return b, true
}
