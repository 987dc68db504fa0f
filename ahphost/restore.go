// Start-up from the state database (issue 28): channels rebuilt from their
// snapshots and logs (chats only when first used: lazychats.go), running
// turns marked interrupted, running terminals marked exited.

package ahphost

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahphost/agent"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// interruptedType is the errorType of a turn that was running when the
// host stopped; its part is resumable (chat/turnResume runs it again).
const interruptedType = "interrupted"

// interruptedMessage is what such a turn's error part says.
const interruptedMessage = "The host stopped while this reply was being written; what had arrived is kept. Resume to continue."

// restore rebuilds the store from db. Any value it cannot decode fails
// the start (*durable.CorruptError): the host never starts empty on a
// database it could not read. h.mu is not needed (the host is not running).
func (s *store) restore(db *durable.DB) error {
	st, err := db.LoadLazy(func(uri string) bool { return kindOf(uri) == chanChat })
	if err != nil {
		return err
	}
	for _, stub := range st.Stubs {
		if err := s.restoreCold(stub.URI, stub.Meta, stub.SnapBytes, stub.LogBytes); err != nil {
			return corrupt(db, stub.URI, err)
		}
	}
	s.seq = st.Seq
	s.persist.durable.Store(st.Seq)
	s.evictedUpTo = st.Seq // nothing to replay: reconnects get snapshots
	type term struct {
		uri   string
		order int
	}
	var terms []term
	var sessions []*sessionEntry
	for _, ch := range st.Channels {
		var meta chanMeta
		if len(ch.Meta) > 0 {
			if err := json.Unmarshal(ch.Meta, &meta); err != nil {
				return corrupt(db, ch.URI, err)
			}
		}
		cp := s.persist.record(ch.URI)
		cp.hasSnap, cp.snap = ch.State != nil, int64(len(ch.State))
		switch kindOf(ch.URI) {
		case chanSession:
			var state ahpwire.SessionState
			if err := replayChannel(ch, &state, ahpstate.ReduceSession); err != nil {
				return corrupt(db, ch.URI, err)
			}
			se := &sessionEntry{uri: ch.URI, state: state, createdAt: meta.CreatedAt}
			s.sessions[ch.URI] = se
			sessions = append(sessions, se)
		case chanAnnotations:
			se := s.annotationsOf(ch.URI)
			if se == nil {
				continue // its session is gone
			}
			if err := replayChannel(ch, &se.annotations, ahpstate.ReduceAnnotations); err != nil {
				return corrupt(db, ch.URI, err)
			}
		case chanTerminal:
			var state ahpwire.TerminalState
			if err := replayChannel(ch, &state, ahpstate.ReduceTerminal); err != nil {
				return corrupt(db, ch.URI, err)
			}
			if s.ext.terminals == nil {
				s.ext.terminals = make(map[string]*ahpwire.TerminalState)
			}
			s.ext.terminals[ch.URI] = &state
			terms = append(terms, term{ch.URI, meta.Order})
		case chanChangeset:
			var state ahpwire.ChangesetState
			if err := replayChannel(ch, &state, ahpstate.ReduceChangeset); err != nil {
				return corrupt(db, ch.URI, err)
			}
			if s.ext.changesets == nil {
				s.ext.changesets = make(map[string]*changesetEntry)
			}
			s.ext.changesets[ch.URI] = &changesetEntry{state: state, reviewable: meta.Reviewable}
		default:
			return corrupt(db, ch.URI, fmt.Errorf("not a channel the host keeps"))
		}
	}
	sort.SliceStable(terms, func(i, j int) bool { return terms[i].order < terms[j].order })
	for _, t := range terms {
		s.ext.termOrder = append(s.ext.termOrder, t.uri)
	}
	s.adoptRestored(sessions)
	return nil
}

// corrupt is restore's error for a channel it cannot rebuild.
func corrupt(db *durable.DB, uri string, err error) error {
	return &durable.CorruptError{Path: db.Path(), Err: fmt.Errorf("channel %.200s: %w", uri, err)}
}

// replayChannel decodes a channel's snapshot into state and reduces its
// logged envelopes into it, in order.
func replayChannel[S any](ch durable.Channel, state *S, reduce func(S, ahpwire.Action) S) error {
	if ch.State != nil {
		if err := json.Unmarshal(ch.State, state); err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
	}
	for _, raw := range ch.Log {
		var env ahpwire.ActionEnvelope
		if err := json.Unmarshal(raw, &env); err != nil {
			return fmt.Errorf("logged action: %w", err)
		}
		if env.ServerSeq <= ch.SnapSeq && ch.State != nil {
			continue
		}
		*state = reduce(*state, env.Action)
	}
	return nil
}

// adoptRestored finishes the restored state: chats without a session are
// dropped, sessions are ordered by their last change, the root state
// counts them and lists the terminals, a turn that was running is ended as
// interrupted (resumable; logged like any action) and a terminal that was
// running as exited (its process is gone). The store's serverSeq is the
// database's.
func (s *store) adoptRestored(sessions []*sessionEntry) {
	for uri, ce := range s.chats {
		if s.sessions[ce.session] == nil {
			delete(s.chats, uri)
			s.persistDeleted(uri)
		}
	}
	for uri, session := range s.cold {
		if s.sessions[session] == nil {
			delete(s.cold, uri)
			delete(s.lastRun, uri)
			s.persistDeleted(uri)
		}
	}
	for _, se := range sessions {
		se.published = s.summary(se)
	}
	sort.SliceStable(sessions, func(i, j int) bool {
		return sessions[i].published.ModifiedAt < sessions[j].published.ModifiedAt
	})
	for _, se := range sessions {
		s.touch++
		se.touch = s.touch
	}
	n := int64(len(s.sessions))
	s.root.ActiveSessions = &n
	if len(s.ext.termOrder) > 0 {
		s.publishTerminals()
	}
	s.endRestoredTerminals()
	// A chat whose summary says a turn runs is read now, which ends that
	// turn as interrupted (chatOrErr); the others stay on disk.
	var busy []string
	for _, se := range sessions {
		for _, cs := range se.state.Chats {
			if _, cold := s.cold[cs.Resource]; cold && cs.Status.Activity()&ahpwire.StatusInProgress != 0 {
				busy = append(busy, cs.Resource)
			}
		}
	}
	sort.Strings(busy)
	for _, uri := range busy {
		s.chat(uri)
	}
	uris := make([]string, 0, len(s.chats))
	for uri := range s.chats {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		ce := s.chats[uri]
		ce.refTurns, ce.lastLarge = 0, 0
		s.refLargeParts(ce)
		if ce.state.ActiveTurn == nil {
			continue
		}
		s.endInterrupted(ce)
	}
	s.restored.sessions = len(sessions)
}

// restoredCounts is what start-up found in the database: the sessions and
// the turns that were running when the host stopped (ended interrupted;
// those of a chat read later, when first used, count then).
type restoredCounts struct {
	sessions, interrupted int
}

// logOpened says, once the host is made, which state database it opened
// and what it found there: an operator reads where the sessions live, that
// a crash interrupted turns (Alt+R resumes them), and that an older
// layout was upgraded (builds that read only that one refuse the file now).
func (h *Host) logOpened(db *durable.DB) {
	r := h.st.restored
	h.log.Info("state database opened", "path", db.Path(), "sessions", r.sessions, "interrupted", r.interrupted,
		"stored_mb", mib(db.Size()), "file_mb", mib(db.FileSize()), "budget_mb", mib(h.opts.StateBudget))
	if v := db.UpgradedFrom(); v != 0 {
		h.log.Warn("upgraded the state database's layout: ahptui builds that read only the older layout refuse it now",
			"path", db.Path(), "from", v, "to", durable.LayoutVersion)
	}
	if c := db.Compacted(); c.Before != 0 {
		h.log.Info("compacted the state database: the pages freed by disposed sessions and evicted replies went back to the file system",
			"path", db.Path(), "before_mb", mib(c.Before), "after_mb", mib(c.After), "took", c.Took.Round(time.Millisecond))
	}
	if err := db.CompactError(); err != nil {
		h.log.Warn("could not compact the state database; it is used as it was", "path", db.Path(), "err", err)
	}
}

// mib is n bytes in MiB, to a tenth.
func mib(n int64) float64 { return float64(n*10/(1<<20)) / 10 }

// endInterrupted ends a restored chat's active turn, which was running
// when the host stopped, as interrupted (resumable). The turn ends when the
// database was last written, about when the host stopped, not at this
// start: its duration and the chat's modifiedAt (the session's age) do not
// count the time the host was down.
func (s *store) endInterrupted(ce *chatEntry) {
	at := ce.state.ActiveTurn
	s.restored.interrupted++
	d := s.turnDuration(ce) // from a resumed turn's moved start (turnclock.go)
	if s.persist != nil {
		if last := s.persist.db.LastWrite(); !last.IsZero() {
			if started := s.turnStart(ce); !started.IsZero() {
				d = min(d, max(0, last.Sub(started).Milliseconds()))
			}
		}
	}
	part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: interruptedType, Message: interruptedMessage}, true)
	s.applyServerChat(ce, &ahpwire.ChatError{TurnID: at.ID, Duration: ahpwire.Ptr(d), Part: &part})
}

// waitsForResume reports whether the chat's last turn is a reply that a
// host stop interrupted and that can still be resumed. The messages queued
// behind it wait (consumeQueued) until it is resumed and ends, or the user
// starts a turn: started at the restart, the first of them would become
// the chat's last turn, so the reply could no longer be resumed, and the
// agent would answer it without the reply it was sent to follow.
func waitsForResume(st ahpwire.ChatState) bool {
	if len(st.Turns) == 0 {
		return false
	}
	last := st.Turns[len(st.Turns)-1]
	if !ahpstate.Resumable(st, last.ID) {
		return false
	}
	p := last.ResponseParts[len(last.ResponseParts)-1]
	return p.Error != nil && p.Error.ErrorType == interruptedType
}

// endLastRunWork removes the background work a chat read for the first
// time since the host started still lists (shells and subagents that
// outlive a turn): it ran in the host, or the agent processes, that
// stopped, so nothing runs it now, and clients showed "⚙ 2 running" on it
// for good. Its terminals end with a line saying so (endRestoredTerminals)
// and its subagents' chats keep what they wrote.
func (s *store) endLastRunWork(ce *chatEntry) {
	for len(ce.state.BackgroundWork) > 0 {
		n := len(ce.state.BackgroundWork)
		s.applyServerChat(ce, &ahpwire.ChatBackgroundWorkRemoved{ID: ce.state.BackgroundWork[0].ID})
		if len(ce.state.BackgroundWork) == n {
			return // not removed (an entry without an id): leave the rest
		}
	}
}

// terminatedNote ends the output of a terminal that was running when the
// host stopped.
const terminatedNote = "\r\n[the host stopped while this command ran; its process is gone and what it printed is kept]\r\n"

// terminatedExit is the exit code of such a terminal: none was observed.
const terminatedExit = -1

// endRestoredTerminals marks every restored terminal still running as
// exited, with a line saying why: no process is behind it any more, and a
// client must not offer input to it. Every exited terminal's output counts
// towards the host-wide bound again (termretain.go), oldest first.
func (s *store) endRestoredTerminals() {
	for _, uri := range s.ext.termOrder {
		t := s.ext.terminals[uri]
		if t == nil {
			continue
		}
		if t.ExitCode != nil {
			s.retainExited(uri)
			continue
		}
		s.applyTerminal(uri, &ahpwire.TerminalData{Data: terminatedNote}, nil)
		s.applyTerminal(uri, &ahpwire.TerminalExited{ExitCode: ahpwire.Ptr[int64](terminatedExit)}, nil)
	}
}

// resumedParts are a resumed turn's parts so far (nil for a new turn).
func resumedParts(at *ahpwire.ActiveTurn, resume bool) []ahpwire.ResponsePart {
	if !resume {
		return nil
	}
	return at.ResponseParts.Slice()
}

// replyTail is the end of the text a resumed turn's reply shows, up to
// agent.ReplyTailBytes: its last markdown parts and pages (read from the
// resource store), back to the last part that is not text. h.mu is held.
func (s *store) replyTail(at *ahpwire.ActiveTurn, resume bool) string {
	if !resume {
		return ""
	}
	var tail string
	for i := at.ResponseParts.Len() - 1; i >= 0 && len(tail) < agent.ReplyTailBytes; i-- {
		p := at.ResponseParts.At(i)
		switch {
		case p.Kind == ahpwire.PartMarkdown:
			tail = p.Content + tail
		case p.Kind == ahpwire.PartContentRef && p.Ref != nil && strings.HasPrefix(p.Ref.URI, largePartURIPrefix):
			it, ok := s.ext.resources.get(p.Ref.URI)
			if !ok {
				return tail
			}
			b, err := it.load()
			if err != nil {
				return tail
			}
			tail = string(b) + tail
		case p.Kind == ahpwire.PartError:
			continue // what stopped it
		default:
			if tail != "" {
				return cutTail(tail)
			}
		}
	}
	return cutTail(tail)
}

// cutTail keeps the last agent.ReplyTailBytes of text, cut on a UTF-8
// boundary.
func cutTail(text string) string {
	if len(text) <= agent.ReplyTailBytes {
		return text
	}
	cut := len(text) - agent.ReplyTailBytes
	for cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut++
	}
	return text[cut:]
}
