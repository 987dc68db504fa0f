// Durable state (issue 28): the host's channels in its state database
// (package ahphost/durable). This file holds what the host records as it
// changes (under h.mu) for the next commit; the commit itself is in
// persist_commit.go, snapshots in persist_snapshot.go, streamed text in
// persist_textrun.go and the rule that holds a connection's writes until
// they are on disk in persist_writeahead.go.

package ahphost

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// DefaultStateBudget bounds the state database (Options.StateBudget).
const DefaultStateBudget = 16 << 30

// persister writes the host's state to its database. Fields under "h.mu"
// are guarded by the host lock; the rest belong to the commit goroutine.
type persister struct {
	db *durable.DB

	// h.mu
	batch    *durable.Batch
	chans    map[string]*chanPersist
	dirty    map[string]bool // channels appended to or created since the last take
	wanted   bool            // something to commit (seq advanced, writes pending)
	failedAt time.Time       // the last failed commit (zero when the last one succeeded)
	closing  bool            // the last commit, at Close, is under way
	retry    *time.Timer     // the commit after a failure's pause

	wake chan struct{} // capacity 1
	// committing is set while the commit goroutine writes what it took
	// (a batch, then the snapshots that only shorten logs).
	committing atomic.Bool
	// budget is the size budget's bookkeeping (commit goroutine only).
	budget budgetState

	// durable is the highest serverSeq connections may write; sigMu
	// guards sig, closed and replaced at every advance.
	durable atomic.Uint64
	sigMu   sync.Mutex
	sig     chan struct{}
}

// chanPersist is what the persister knows of one stored channel (h.mu).
type chanPersist struct {
	tail    int64 // log bytes since the last snapshot
	snap    int64 // size of the last snapshot
	hasSnap bool  // a snapshot is on disk or queued
	reSnap  bool  // snapshot at the next take (created or changed without an action)
	text    textRun
	// gen is 1 + the resource generation of the batch that takes the
	// channel's last write (0: none since start); the write is on disk
	// once gen ≤ resourceStore.stored (lazychats.go).
	gen uint64
}

func newPersister(db *durable.DB) *persister {
	return &persister{
		db:    db,
		batch: &durable.Batch{},
		chans: make(map[string]*chanPersist),
		dirty: make(map[string]bool),
		wake:  make(chan struct{}, 1),
		sig:   make(chan struct{}),
	}
}

// persistable reports whether a channel is stored (the root channel is
// rebuilt from the others and the agents at start).
func persistable(uri string) bool {
	switch kindOf(uri) {
	case chanSession, chanChat, chanTerminal, chanChangeset, chanAnnotations:
		return true
	}
	return false
}

// record returns the record of uri, creating it.
func (p *persister) record(uri string) *chanPersist {
	cp := p.chans[uri]
	if cp == nil {
		cp = &chanPersist{}
		p.chans[uri] = cp
	}
	return cp
}

// persistLogged records action a, stamped seq for channel as env. h.mu
// is held.
func (s *store) persistLogged(channel string, seq uint64, a ahpwire.Action, env []byte) {
	p := s.persist
	if p == nil {
		return
	}
	if persistable(channel) {
		cp := p.record(channel)
		cp.gen = s.ext.resources.gen + 1
		switch {
		case !cp.hasSnap:
			cp.reSnap = true
		case cp.text.add(a, seq):
			cp.tail += int64(cp.text.last)
		default:
			s.flushText(channel, cp)
			p.batch.Append(channel, seq, env)
			cp.tail += int64(len(env))
		}
		p.dirty[channel] = true
	}
	p.kick()
}

// persistSeq records that the serverSeq advanced without a stored action
// (an envelope sent to one client). h.mu is held.
func (s *store) persistSeq() {
	if s.persist != nil {
		s.persist.kick()
	}
}

// persistChanged makes the next commit snapshot channel whole: it was
// created, or changed without an action. h.mu is held.
func (s *store) persistChanged(channel string) {
	p := s.persist
	if p == nil || !persistable(channel) {
		return
	}
	cp := p.record(channel)
	cp.reSnap, cp.gen = true, s.ext.resources.gen+1
	p.dirty[channel] = true
	p.kick()
}

// persistDeleted removes a disposed channel from the database. h.mu is held.
func (s *store) persistDeleted(channel string) {
	p := s.persist
	if p == nil || !persistable(channel) {
		return
	}
	delete(p.chans, channel)
	delete(p.dirty, channel)
	p.batch.Delete(channel)
	p.kick()
}

// persistResource stores a resource's content. h.mu is held.
func (s *store) persistResource(uri, contentType string, data []byte) {
	if p := s.persist; p != nil {
		p.batch.PutResource(uri, contentType, data)
		p.kick()
	}
}

// kick asks the commit goroutine for a commit. h.mu is held.
func (p *persister) kick() {
	p.wanted = true
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// chanMeta is the host's own fields of a stored channel.
type chanMeta struct {
	// CreatedAt is a session's creation time.
	CreatedAt string `json:"createdAt,omitempty"`
	// Session is a chat's session.
	Session string `json:"session,omitempty"`
	// Reviewable is a changeset's review flag.
	Reviewable bool `json:"reviewable,omitempty"`
	// Order is a terminal's place in RootState.terminals.
	Order int `json:"order,omitempty"`
	// ResumedTurn and RunSince are a chat's resumed active turn and its
	// moved start (turnclock.go).
	ResumedTurn string `json:"resumedTurn,omitempty"`
	RunSince    string `json:"runSince,omitempty"`
}

// DropUnusedSession disposes of a session whose chats have no turn yet
// (`ahptui --agent` opens a fresh one at every start; one left unused is
// not kept). It reports whether the session was dropped.
func (h *Host) DropUnusedSession(uri string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.st
	se := s.sessions[uri]
	if se == nil || h.closed {
		return false
	}
	for _, cs := range se.state.Chats {
		if ce := s.chat(cs.Resource); ce != nil && (len(ce.state.Turns) > 0 || ce.state.ActiveTurn != nil) {
			return false
		}
	}
	for _, cs := range se.state.Chats {
		s.removeChat(cs.Resource)
	}
	delete(s.sessions, uri)
	s.dropChannel(uri)
	s.persistDeleted(uri)
	s.activeSessionsChanged()
	s.notifyRoot(ahpwire.MethodSessionRemoved, ahpwire.SessionRemovedParams{Channel: ahpwire.RootURI, Session: uri})
	return true
}

// IsStateLocked reports whether New failed because another process holds
// the state database (a *durable.LockedError).
func IsStateLocked(err error) bool {
	var le *durable.LockedError
	return errors.As(err, &le)
}
