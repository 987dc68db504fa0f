// Durable state (issue 28): the host's channels in its state database
// (package ahphost/durable) and the write-ahead rule.

package ahphost

import (
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// The write-ahead rule: nothing a connection writes reflects a serverSeq
// the database does not hold. Every outbound message records the host's
// serverSeq when it was queued (outMsg.at: its own serverSeq for an action
// envelope, the current one for a response, snapshot or notification);
// the connection's writer holds it until a commit covering that serverSeq
// has been synced (persister.durable). Actions are grouped: whatever was
// stamped while one commit was being synced goes in the next, so a
// streaming reply costs one transaction per group of deltas, not per delta.
// After a crash the host restarts at the last committed serverSeq, which is
// at least the highest any client saw, so no serverSeq is ever reused for
// a different action and no client holds an action the host forgot.
//
// When a commit fails (disk full), the host says so in its log and on the
// running turns of the chats it could not save (a chat/error), keeps
// serving from memory, and retries at most once a second; the channels of
// a lost batch are snapshotted whole by the next commit that succeeds.

// DefaultStateBudget bounds the state database (Options.StateBudget).
const DefaultStateBudget = 16 << 30

// When a channel is snapshotted again: once its log since the last
// snapshot is larger than minSnapTail and a multiple of that snapshot's
// size (four times it while the chat is idle, eight times while a turn
// streams, whose deltas would otherwise make it re-encode a growing reply
// over and over; a delta's envelope is 3–5 times its text). Encoding
// snapshots costs at most a quarter of what was logged, and a restart
// replays at most about eight times a channel's state.
const (
	minSnapTail    = 1 << 20
	streamSnapTail = 16 << 20
)

// failRetry is the least time between two commits after one failed.
const failRetry = time.Second

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
	retry    *time.Timer     // the commit after a failure's pause

	wake chan struct{} // capacity 1
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

// textRun is a run of streamed text deltas (chat/delta or chat/reasoning)
// of one part, logged as one action: reducing the joined text is reducing
// the deltas one by one (ahpstate appends them), so a reply streamed in
// 20–60-byte deltas costs its text in the database, not an envelope per
// delta. Any other action of the channel ends the run.
type textRun struct {
	reasoning      bool
	turnID, partID string
	text           []byte
	seq            uint64 // of the last delta
	last           int    // bytes the last add took
}

// add joins a's text to the run when a continues it (or starts one when
// the run is empty); false when a is not a delta of the run's part.
func (r *textRun) add(a ahpwire.Action, seq uint64) bool {
	var turn, part, text string
	var reasoning bool
	switch d := a.(type) {
	case *ahpwire.ChatDelta:
		if len(d.Meta) > 0 {
			return false
		}
		turn, part, text = d.TurnID, d.PartID, d.Content
	case *ahpwire.ChatReasoning:
		if len(d.Meta) > 0 {
			return false
		}
		turn, part, text, reasoning = d.TurnID, d.PartID, d.Content, true
	default:
		return false
	}
	if r.seq != 0 && (r.reasoning != reasoning || r.turnID != turn || r.partID != part) {
		return false
	}
	r.reasoning, r.turnID, r.partID, r.seq, r.last = reasoning, turn, part, seq, len(text)
	r.text = append(r.text, text...)
	return true
}

// flushText logs channel's text run as one action. h.mu is held.
func (s *store) flushText(channel string, cp *chanPersist) {
	r := &cp.text
	if r.seq == 0 {
		return
	}
	var a ahpwire.Action = &ahpwire.ChatDelta{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	if r.reasoning {
		a = &ahpwire.ChatReasoning{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	}
	env, _, err := envelopeFrame(channel, r.seq, a, nil, nil, "")
	if err != nil {
		s.h.log.Error("cannot encode streamed text for the state database", "channel", truncate(channel, 200), "err", err)
	} else {
		s.persist.batch.Append(channel, r.seq, env)
	}
	*r = textRun{text: r.text[:0]}
	if cap(r.text) > 64<<10 {
		r.text = nil
	}
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
}

// snapJob is a channel state captured under h.mu, encoded outside it
// (states are immutable values).
type snapJob struct {
	uri   string
	state any
	meta  chanMeta
}

// take swaps out the pending batch and captures the snapshots it needs;
// gen is the resource generation the batch stores. h.mu is held.
func (s *store) take() (b *durable.Batch, jobs []snapJob, gen uint64) {
	p := s.persist
	for uri := range p.dirty {
		if cp := p.chans[uri]; cp != nil {
			s.flushText(uri, cp)
		}
	}
	b = p.batch
	b.Seq = s.seq
	p.batch = &durable.Batch{}
	p.wanted = false
	gen = s.ext.resources.gen
	s.ext.resources.gen++
	for uri := range p.dirty {
		cp := p.chans[uri]
		if cp == nil || !(cp.reSnap || cp.tail > s.snapTail(uri, cp.snap)) {
			continue
		}
		st, meta, ok := s.persistState(uri)
		if !ok {
			continue
		}
		jobs = append(jobs, snapJob{uri: uri, state: st, meta: meta})
		cp.tail, cp.reSnap, cp.hasSnap = 0, false, true
	}
	clear(p.dirty)
	return b, jobs, gen
}

// dropPending gives up the pending batch while the database fails: its
// channels are snapshotted whole by the next commit, its resources stay
// queued. h.mu is held.
func (s *store) dropPending() {
	p := s.persist
	for uri := range p.dirty {
		if cp := p.chans[uri]; cp != nil {
			s.flushText(uri, cp)
		}
	}
	b := p.batch
	p.batch = &durable.Batch{}
	p.wanted = false
	s.requeue(b)
}

// requeue marks the channels of a batch that was not written for a whole
// snapshot and queues its resources again. h.mu is held.
func (s *store) requeue(b *durable.Batch) {
	p := s.persist
	for _, uri := range b.Channels() {
		if cp := p.chans[uri]; cp != nil {
			cp.reSnap = true
			p.dirty[uri] = true
		}
	}
	b.Resources(func(uri, ct string, data []byte) { p.batch.PutResource(uri, ct, data) })
}

// snapTail is the log that makes channel uri, last snapshotted at snap
// bytes, due for a new snapshot. h.mu is held.
func (s *store) snapTail(uri string, snap int64) int64 {
	if ce := s.chats[uri]; ce != nil && ce.state.ActiveTurn != nil {
		return max(streamSnapTail, 8*snap)
	}
	return max(minSnapTail, 4*snap)
}

// persistState returns a channel's state and meta to snapshot.
func (s *store) persistState(uri string) (any, chanMeta, bool) {
	switch kindOf(uri) {
	case chanSession:
		if se := s.sessions[uri]; se != nil {
			return se.state, chanMeta{CreatedAt: se.createdAt}, true
		}
	case chanAnnotations:
		if se := s.annotationsOf(uri); se != nil {
			return se.annotations, chanMeta{}, true
		}
	case chanChat:
		if ce := s.chats[uri]; ce != nil {
			return ce.state, chanMeta{Session: ce.session}, true
		}
	case chanTerminal:
		if t := s.ext.terminals[uri]; t != nil {
			order := 0
			for i, u := range s.ext.termOrder {
				if u == uri {
					order = i
				}
			}
			return *t, chanMeta{Order: order}, true
		}
	case chanChangeset:
		if c := s.ext.changesets[uri]; c != nil {
			return c.state, chanMeta{Reviewable: c.reviewable}, true
		}
	}
	return nil, chanMeta{}, false
}

// commitLoop commits what the host stamps until it closes; Close makes
// the last commit itself.
func (h *Host) commitLoop() {
	defer h.wg.Done()
	p := h.st.persist
	sweep := time.NewTicker(h.chatSweep())
	defer sweep.Stop()
	for {
		select {
		case <-p.wake:
		case <-sweep.C:
			h.mu.Lock()
			h.st.sweepChats(true) // lazychats.go
			h.mu.Unlock()
			continue
		case <-h.ctx.Done():
			return
		}
		h.commitOnce()
	}
}

// commitOnce takes the pending batch, writes it and lets the connections
// write what it covers.
func (h *Host) commitOnce() {
	p := h.st.persist
	h.mu.Lock()
	if !p.wanted {
		h.mu.Unlock()
		return
	}
	if !p.failedAt.IsZero() && h.opts.Now().Sub(p.failedAt) < failRetry {
		// Failing: serve from memory, write again after a pause.
		seq := h.st.seq
		h.st.dropPending()
		if p.retry == nil && !h.closed {
			p.retry = time.AfterFunc(failRetry, func() {
				h.mu.Lock()
				p.retry = nil
				p.kick()
				h.mu.Unlock()
			})
		}
		h.mu.Unlock()
		p.advance(seq)
		return
	}
	b, jobs, gen := h.st.take()
	h.mu.Unlock()
	sizes := make(map[string]int64, len(jobs))
	for _, j := range jobs {
		state, err := json.Marshal(j.state)
		if err != nil {
			h.log.Error("cannot encode a channel for the state database", "channel", truncate(j.uri, 200), "err", err)
			continue
		}
		meta, _ := json.Marshal(j.meta)
		b.Snapshot(j.uri, b.Seq, meta, state)
		sizes[j.uri] = int64(len(state))
	}
	err := p.db.Commit(b)
	h.mu.Lock()
	if err != nil {
		h.st.commitFailed(b, err)
	} else {
		if !p.failedAt.IsZero() {
			h.log.Info("the state database is writable again")
		}
		p.failedAt = time.Time{}
		for uri, n := range sizes {
			if cp := p.chans[uri]; cp != nil {
				cp.snap = n
			}
		}
		h.st.ext.resources.committed(gen, h.st.resourceBudget())
	}
	h.mu.Unlock()
	p.advance(b.Seq)
	if err == nil {
		h.checkBudget(b.Bytes())
	}
}

// commitFailed reports a failed commit and arranges for its channels to be
// snapshotted whole by the next one. h.mu is held.
func (s *store) commitFailed(b *durable.Batch, err error) {
	p := s.persist
	first := p.failedAt.IsZero()
	p.failedAt = s.h.opts.Now()
	if first {
		s.h.log.Error("cannot write the state database; serving from memory until it is writable again", "path", p.db.Path(), "err", err)
	}
	s.requeue(b)
	p.wanted = true
	if !first {
		return
	}
	msg := "the host cannot save this chat (" + truncate(err.Error(), 200) + "); the reply was stopped, and what it shows is kept in memory only"
	for _, uri := range b.Channels() {
		ce := s.chats[uri]
		if ce == nil || ce.state.ActiveTurn == nil {
			continue
		}
		at := ce.state.ActiveTurn
		part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "storageFailed", Message: msg}, true)
		s.applyServerChat(ce, &ahpwire.ChatError{TurnID: at.ID, Duration: ahpwire.Ptr(s.durationSince(at.StartedAt)), Part: &part})
	}
}

// advance lets connections write up to seq.
func (p *persister) advance(seq uint64) {
	if seq <= p.durable.Load() {
		return
	}
	p.durable.Store(seq)
	p.sigMu.Lock()
	close(p.sig)
	p.sig = make(chan struct{})
	p.sigMu.Unlock()
}

// signal returns the channel closed at the next advance.
func (p *persister) signal() <-chan struct{} {
	p.sigMu.Lock()
	defer p.sigMu.Unlock()
	return p.sig
}

// awaitDurable holds a connection's next message until the database holds
// its serverSeq (the write-ahead rule). It returns false when the
// connection ended while waiting.
func (c *conn) awaitDurable(at uint64) bool {
	p := c.h.st.persist
	if p == nil || at <= p.durable.Load() {
		return true
	}
	if !c.flushCork() {
		return false
	}
	for {
		sig := p.signal()
		if at <= p.durable.Load() {
			return true
		}
		select {
		case <-sig:
		case <-c.ctx.Done():
			return false
		}
	}
}

// closePersist makes the last commit and closes the database (Close).
func (h *Host) closePersist() {
	p := h.st.persist
	if p == nil {
		return
	}
	h.mu.Lock()
	if p.retry != nil {
		p.retry.Stop()
	}
	p.failedAt = time.Time{}
	p.wanted = true
	h.mu.Unlock()
	h.commitOnce()
	if err := p.db.Close(); err != nil {
		h.log.Warn("closing the state database", "err", err)
	}
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
