// Chats on disk (issue 28): a durable host keeps in memory only what the
// session list needs (every session's state, with its chats' summaries);
// a chat's state is read from the database the first time something needs
// it (a subscribe, fetchTurns, a dispatch, an agent's action, a fork) and
// goes back to disk only once nobody uses it, so the host's memory follows
// what is in use, not what is stored.

package ahphost

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// Defaults of Options.ChatMemory and Options.ChatIdle.
const (
	// DefaultChatMemory bounds the stored size of the chats a durable host
	// keeps in memory while nobody uses them.
	DefaultChatMemory = 64 << 20
	// DefaultChatIdle is how long a durable host keeps a chat nobody uses
	// in memory (at least; at most twice as long).
	DefaultChatIdle = time.Minute
)

// durableResourceMemory bounds the resource pages a durable host keeps in
// memory once they are written: the database serves the others.
const durableResourceMemory = 16 << 20

// resourceBudget is the memory the resource store may keep: a durable
// host keeps at most durableResourceMemory of pages already written (the
// database serves them), an ephemeral one Options.ResourceBudget.
func (s *store) resourceBudget() int64 {
	if s.persist != nil {
		return min(s.h.opts.ResourceBudget, durableResourceMemory)
	}
	return s.h.opts.ResourceBudget
}

// coldChats are the chats of a durable host that are stored but not in
// memory: each URI's session. The maps of store.chats and coldChats never
// share a URI.
type coldChats map[string]string

// chatExists reports whether chat uri exists, in memory or on disk.
func (s *store) chatExists(uri string) bool {
	if s.chats[uri] != nil {
		return true
	}
	_, ok := s.cold[uri]
	return ok
}

// unreadableChat is what a client is told of a chat the database holds
// but cannot be read (damaged on disk): the log has which and why.
const unreadableChat = "the host cannot read this chat from its state database: it is damaged there " +
	"(the host's log names the chat and the damage; the other chats are not affected)"

// chat returns chat uri, reading it from the database when it is on disk
// only (nil when it does not exist or cannot be read: logged). It counts
// as a use. h.mu is held.
func (s *store) chat(uri string) *chatEntry {
	ce, err := s.chatOrErr(uri)
	if err != nil {
		s.h.log.Error("cannot read a chat from the state database", "chat", truncate(uri, 200), "err", err)
	}
	return ce
}

// chatOrErr is chat with the read's error.
func (s *store) chatOrErr(uri string) (*chatEntry, error) {
	if ce := s.chats[uri]; ce != nil {
		ce.usedAt = s.sweeps
		return ce, nil
	}
	session, ok := s.cold[uri]
	if !ok || s.persist == nil {
		return nil, nil
	}
	ch, found, err := s.persist.db.Channel(uri)
	if err != nil {
		return nil, fmt.Errorf("read chat: %w", err)
	}
	if !found {
		delete(s.cold, uri)
		return nil, nil
	}
	var state ahpwire.ChatState
	if err := replayChannel(ch, &state, ahpstate.ReduceChat); err != nil {
		return nil, fmt.Errorf("chat %.200s: %w", uri, err)
	}
	delete(s.cold, uri)
	ce := &chatEntry{uri: uri, session: session, state: state, usedAt: s.sweeps}
	s.chats[uri] = ce
	cp := s.persist.record(uri)
	cp.hasSnap, cp.snap, cp.tail = ch.State != nil, int64(len(ch.State)), 0
	for _, e := range ch.Log {
		cp.tail += int64(len(e))
	}
	s.noteLargeParts(ce)
	var m chanMeta
	if len(ch.Meta) > 0 && json.Unmarshal(ch.Meta, &m) == nil {
		ce.restoreResumed(m) // turnclock.go
	}
	if _, ok := s.lastRun[uri]; ok {
		delete(s.lastRun, uri)
		s.endLastRunWork(ce) // (restore.go)
	}
	if ce.state.ActiveTurn != nil {
		// Only a turn that was running when the host stopped is stored
		// active: a chat with a turn never leaves memory (evictable).
		s.endInterrupted(ce)
	}
	return ce, nil
}

// noteLargeParts sets what refLargeParts keeps of a chat read from disk
// (which finished turns hold large parts) without touching the replay log.
func (s *store) noteLargeParts(ce *chatEntry) {
	ce.refTurns, ce.lastLarge = len(ce.state.Turns), 0
	if limit := s.h.opts.LargePartBytes; limit >= 0 {
		for i, t := range ce.state.Turns {
			if turnIsLarge(t, limit) {
				ce.lastLarge = i + 1
			}
		}
	}
}

// restoreCold records a stored chat left on disk at start. h.mu is not
// needed (the host is not running).
func (s *store) restoreCold(uri string, meta []byte, snapBytes, logBytes int64) error {
	var m chanMeta
	if len(meta) > 0 {
		if err := json.Unmarshal(meta, &m); err != nil {
			return err
		}
	}
	s.cold[uri] = m.Session
	if s.lastRun == nil {
		s.lastRun = make(map[string]struct{})
	}
	s.lastRun[uri] = struct{}{}
	cp := s.persist.record(uri)
	cp.hasSnap, cp.snap, cp.tail = snapBytes > 0, snapBytes, logBytes
	return nil
}

// evictable reports whether chat ce may go back to disk: nobody follows
// it, no turn runs or waits in it, and everything it holds is written.
// h.mu is held.
func (s *store) evictable(ce *chatEntry) bool {
	p := s.persist
	if p == nil || !p.failedAt.IsZero() || len(s.subs[ce.uri]) > 0 || ce.run != nil || ce.spill != nil ||
		ce.state.ActiveTurn != nil || len(ce.state.InputRequests) > 0 {
		return false
	}
	if _, waiting := s.extra.childDone[ce.uri]; waiting {
		return false
	}
	cp := p.chans[ce.uri]
	// cp.gen ≤ stored: the batch that took its last write was committed.
	return cp != nil && cp.hasSnap && !cp.reSnap && !p.dirty[ce.uri] && cp.text.seq == 0 && cp.gen <= s.ext.resources.stored
}

// chatBytes is about how much memory a chat takes: its stored size.
func (s *store) chatBytes(uri string) int64 {
	if cp := s.persist.chans[uri]; cp != nil {
		return cp.snap + cp.tail
	}
	return 0
}

// sweepChats sends back to disk the chats nobody used for a sweep or
// more, then, while the chats in memory are over Options.ChatMemory, the
// least recently used ones that may go. It starts a new sweep period when
// tick is set. h.mu is held.
func (s *store) sweepChats(tick bool) {
	if s.persist == nil || s.h.closed {
		return
	}
	var cands []*chatEntry
	var total int64
	for _, ce := range s.chats {
		total += s.chatBytes(ce.uri)
		if s.evictable(ce) {
			cands = append(cands, ce)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		return cands[i].usedAt < cands[j].usedAt || cands[i].usedAt == cands[j].usedAt && cands[i].uri < cands[j].uri
	})
	idle, budget := s.h.opts.ChatIdle >= 0, s.h.opts.ChatMemory
	n := 0
	for _, ce := range cands {
		over := budget >= 0 && total > budget
		if !over && !(idle && tick && ce.usedAt < s.sweeps) {
			continue
		}
		total -= s.chatBytes(ce.uri)
		s.evictChat(ce)
		n++
	}
	if tick {
		s.sweeps++
	}
	if n > 0 {
		s.h.releaseMemory()
	}
}

// evictChat puts an evictable chat back on disk only. h.mu is held.
func (s *store) evictChat(ce *chatEntry) {
	s.flushDelta(ce) // (none waits in a chat without a turn; a late agent's would)
	delete(s.chats, ce.uri)
	s.cold[ce.uri] = ce.session
}

// chatSweep is how often a durable host looks for chats to send back to
// disk: every ChatIdle (a chat nobody uses goes after one to two).
func (h *Host) chatSweep() time.Duration {
	if h.opts.ChatIdle <= 0 {
		return DefaultChatIdle
	}
	return max(h.opts.ChatIdle, time.Millisecond)
}
