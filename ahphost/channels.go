package ahphost

import (
	"encoding/json"
	"strings"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// Channel kinds beyond root/session/chat (see kindOf).
const (
	chanTerminal channelKind = 100 + iota
	chanChangeset
	chanAnnotations   // <session>/annotations (annotations.go)
	chanResourceWatch // ahp-resource-watch:/<id> (watches.go)
)

// extChannels holds the host's terminal and changeset channels and its
// resource store. Maps are created on first use. Every method requires
// h.mu.
type extChannels struct {
	terminals  map[string]*ahpwire.TerminalState
	termOrder  []string // creation order, for RootState.terminals
	changesets map[string]*changesetEntry
	resources  resourceStore
	inputs     map[string]func(string)         // interactive terminals' input (terminput.go)
	resizes    map[string]func(cols, rows int) // interactive terminals' size (termresize.go)
	watches    map[string]*watchEntry          // resource watches (watches.go)
	retained   termRetention                   // exited terminals' output (termretain.go)
}

// changesetEntry is one changeset channel.
type changesetEntry struct {
	state      ahpwire.ChangesetState
	reviewable bool
}

// extKind classifies terminal and changeset URIs (chanUnknown otherwise).
func extKind(uri string) channelKind {
	switch {
	case strings.HasPrefix(uri, ahpwire.TerminalScheme+"/") && len(uri) > len(ahpwire.TerminalScheme)+1:
		return chanTerminal
	case strings.HasPrefix(uri, ahpwire.ChangesetScheme+"/") && len(uri) > len(ahpwire.ChangesetScheme)+1:
		return chanChangeset
	case strings.HasPrefix(uri, ahpwire.ResourceWatchScheme+"/") && len(uri) > len(ahpwire.ResourceWatchScheme)+1:
		return chanResourceWatch
	}
	if _, ok := ahpwire.AnnotationsSession(uri); ok {
		return chanAnnotations
	}
	return chanUnknown
}

// extExists reports whether a terminal or changeset channel exists.
func (s *store) extExists(uri string) bool {
	switch kindOf(uri) {
	case chanTerminal:
		return s.ext.terminals[uri] != nil
	case chanChangeset:
		return s.ext.changesets[uri] != nil
	case chanAnnotations:
		return s.annotationsOf(uri) != nil
	case chanResourceWatch:
		return s.ext.watches[uri] != nil
	}
	return false
}

// extState returns the state of a terminal or changeset channel.
func (s *store) extState(uri string) (any, bool) {
	switch kindOf(uri) {
	case chanTerminal:
		if t := s.ext.terminals[uri]; t != nil {
			return *t, true
		}
	case chanChangeset:
		if c := s.ext.changesets[uri]; c != nil {
			return c.state, true
		}
	case chanAnnotations:
		if se := s.annotationsOf(uri); se != nil {
			return se.annotations, true
		}
	case chanResourceWatch:
		if w := s.ext.watches[uri]; w != nil {
			return w.state, true
		}
	}
	return nil, false
}

// extNotFound is the subscribe error for a missing terminal/changeset.
func (s *store) extNotFound(uri string) *rpcError {
	if s.extExists(uri) {
		return nil
	}
	return &rpcError{code: ahpwire.CodeNotFound, msg: "channel not found"}
}

// openTerminal creates or replaces a terminal channel and republishes the
// root terminal catalogue.
func (s *store) openTerminal(uri string, st ahpwire.TerminalState) {
	if s.ext.terminals == nil {
		s.ext.terminals = make(map[string]*ahpwire.TerminalState)
	}
	if s.ext.terminals[uri] == nil {
		s.ext.termOrder = append(s.ext.termOrder, uri)
	}
	s.ext.terminals[uri] = &st
	s.persistChanged(uri)
	s.publishTerminals()
}

// applyTerminal reduces and broadcasts a terminal action (server or an
// accepted client action); exits republish the catalogue.
func (s *store) applyTerminal(uri string, a ahpwire.Action, origin *ahpwire.ActionOrigin) {
	t := s.ext.terminals[uri]
	if t == nil {
		return
	}
	*t = ahpstate.ReduceTerminal(*t, a)
	s.emit(uri, a, origin, "")
	if _, ok := a.(*ahpwire.TerminalExited); ok {
		s.retainExited(uri)
	}
	switch a.(type) {
	case *ahpwire.TerminalExited, *ahpwire.TerminalTitleChanged, *ahpwire.TerminalClaimed:
		s.publishTerminals()
	}
}

// publishTerminals sets RootState.terminals from the terminal channels and
// broadcasts root/terminalsChanged.
func (s *store) publishTerminals() {
	list := make([]json.RawMessage, 0, len(s.ext.termOrder))
	for _, uri := range s.ext.termOrder {
		t := s.ext.terminals[uri]
		b, err := json.Marshal(ahpwire.TerminalInfo{Resource: uri, Title: t.Title, Claim: t.Claim, ExitCode: t.ExitCode})
		if err != nil {
			s.h.log.Error("cannot encode terminal info", "terminal", uri, "err", err)
			continue
		}
		list = append(list, b)
	}
	a := &ahpwire.RootTerminalsChanged{Terminals: list}
	s.root = reduceRoot(s.root, a)
	s.emit(ahpwire.RootURI, a, nil, "")
}

// setChangeset creates a changeset channel, or replaces its content with
// changeset/contentChanged.
func (s *store) setChangeset(uri string, st ahpwire.ChangesetState, reviewable bool) {
	if s.ext.changesets == nil {
		s.ext.changesets = make(map[string]*changesetEntry)
	}
	if c := s.ext.changesets[uri]; c != nil {
		if c.reviewable != reviewable {
			s.persistChanged(uri)
		}
		c.reviewable = reviewable
		s.applyChangeset(uri, &ahpwire.ChangesetContentChanged{Files: st.Files, Operations: st.Operations, Error: st.Error}, nil)
		if c.state.Status != st.Status {
			s.applyChangeset(uri, &ahpwire.ChangesetStatusChanged{Status: st.Status, Error: st.Error}, nil)
		}
		return
	}
	s.ext.changesets[uri] = &changesetEntry{state: st, reviewable: reviewable}
	s.persistChanged(uri)
}

// applyChangeset reduces and broadcasts a changeset action.
func (s *store) applyChangeset(uri string, a ahpwire.Action, origin *ahpwire.ActionOrigin) {
	c := s.ext.changesets[uri]
	if c == nil {
		return
	}
	c.state = ahpstate.ReduceChangeset(c.state, a)
	s.emit(uri, a, origin, "")
}

// dispatchExt validates and applies a client action on a terminal or
// changeset channel; a rejected one is echoed with its reason.
func (s *store) dispatchExt(uri string, a ahpwire.Action, origin *ahpwire.ActionOrigin) string {
	reason := s.validateExt(uri, a, origin.ClientID)
	if reason != "" {
		s.emit(uri, a, origin, reason)
		return reason
	}
	if kindOf(uri) == chanTerminal {
		s.applyTerminal(uri, a, origin)
		s.terminalInput(uri, a)
		s.terminalResize(uri, a) // termresize.go
	} else {
		s.applyChangeset(uri, a, origin)
	}
	return ""
}

// validateExt returns why a client may not dispatch a on uri ("" = ok):
// terminals follow ahpstate.ValidateTerminalAction (claim holder, size and
// title bounds; the demo's terminals are claimed by sessions and have no
// pty behind them);
// changesets accept filesReviewChanged when they are reviewable.
func (s *store) validateExt(uri string, a ahpwire.Action, clientID string) string {
	switch kindOf(uri) {
	case chanTerminal:
		t := s.ext.terminals[uri]
		if s.claimable(uri, t, a, clientID) {
			return "" // a client takes an agent's running pty terminal (terminput.go)
		}
		if err := ahpstate.ValidateTerminalAction(*t, a, clientID); err != nil {
			return err.Error()
		}
		return s.fixedSize(uri, a) // termresize.go
	case chanChangeset:
		if _, ok := a.(*ahpwire.ChangesetFilesReviewChanged); !ok {
			return "action is not client-dispatchable on a changeset: " + a.ActionType()
		}
		if !s.ext.changesets[uri].reviewable {
			return "this changeset does not support review"
		}
		return ""
	}
	return "unknown channel"
}
