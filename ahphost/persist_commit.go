// Group commits of a durable host (issue 28): one goroutine takes what the
// host recorded since the last commit, writes it in one transaction and
// lets the connections write what it covers; a failing database is
// retried while the host serves from memory.
//
// When a commit fails (disk full), the host says so in its log and on the
// running turns of the chats it could not save (a chat/error), keeps
// serving from memory, and retries at most once a second; the channels of
// a lost batch are snapshotted whole by the next commit that succeeds.

package ahphost

import (
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// failRetry is the least time between two commits after one failed.
const failRetry = time.Second

// hookCommit, when set (tests), runs before every commit in the commit
// goroutine.
var hookCommit atomic.Pointer[func()]

// take swaps out the pending batch and captures the snapshots it needs
// and the text runs that end it (runs: logged by the caller, outside h.mu,
// after what the batch holds); gen is the resource generation the batch
// stores. h.mu is held.
func (s *store) take() (b *durable.Batch, runs []detachedRun, jobs []snapJob, gen uint64) {
	p := s.persist
	for uri := range p.dirty {
		if cp := p.chans[uri]; cp != nil && cp.text.seq != 0 {
			runs = append(runs, detachedRun{channel: uri, run: cp.text})
			cp.text = textRun{}
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
		jobs = append(jobs, snapJob{uri: uri, state: st, meta: meta, compact: !cp.reSnap})
		cp.tail, cp.reSnap, cp.hasSnap = 0, false, true
	}
	clear(p.dirty)
	return b, runs, jobs, gen
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
	b, runs, jobs, gen := h.st.take()
	p.committing.Store(true)
	defer p.committing.Store(false)
	h.mu.Unlock()
	for _, r := range runs {
		h.logText(b, r.channel, r.run)
	}
	var compact []snapJob
	sizes := make(map[string]int64, len(jobs))
	for _, j := range jobs {
		if j.compact {
			compact = append(compact, j)
			continue
		}
		h.encodeSnapshot(b, j, sizes)
	}
	if err := h.write(b, gen, sizes); err != nil || len(compact) == 0 {
		return
	}
	// The log holds these channels whole already: their snapshots only
	// shorten it, and go in a transaction of their own after the batch,
	// so that encoding a long chat does not hold back what the batch lets
	// the connections write (a turn's end, typically). No other commit
	// runs in between, so each snapshot replaces exactly the log up to
	// b.Seq; what was stamped since is in the pending batch, written after.
	b2 := &durable.Batch{Seq: b.Seq}
	sizes = make(map[string]int64, len(compact))
	for _, j := range compact {
		h.encodeSnapshot(b2, j, sizes)
	}
	_ = h.write(b2, gen, sizes)
}

// persistIdle reports whether the commit goroutine has nothing to write
// and is not writing (true for a host that is not durable).
func (h *Host) persistIdle() bool {
	p := h.st.persist
	if p == nil {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return !p.wanted && !p.committing.Load()
}

// encodeSnapshot adds job j's snapshot to b (at b.Seq) and its size to
// sizes; a state that cannot be encoded is logged and left out.
func (h *Host) encodeSnapshot(b *durable.Batch, j snapJob, sizes map[string]int64) {
	var state []byte
	var err error
	if m, ok := j.state.(json.Marshaler); ok {
		state, err = m.MarshalJSON() // the states encode themselves: json.Marshal would only re-scan the result
	} else {
		state, err = json.Marshal(j.state)
	}
	if err != nil {
		h.log.Error("cannot encode a channel for the state database", "channel", truncate(j.uri, 200), "err", err)
		return
	}
	meta, _ := json.Marshal(j.meta)
	b.Snapshot(j.uri, b.Seq, meta, state)
	sizes[j.uri] = int64(len(state))
}

// write commits b (which stores resource generation gen and the
// snapshots of sizes), records the outcome and lets the connections write
// up to b.Seq.
func (h *Host) write(b *durable.Batch, gen uint64, sizes map[string]int64) error {
	p := h.st.persist
	if f := hookCommit.Load(); f != nil {
		(*f)()
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
	return err
}

// commitFailed reports a failed commit and arranges for its channels to be
// snapshotted whole by the next one. h.mu is held.
func (s *store) commitFailed(b *durable.Batch, err error) {
	p := s.persist
	first := p.failedAt.IsZero()
	p.failedAt = s.h.opts.Now()
	switch {
	case p.closing: // no later commit: what this one held is gone
		s.h.log.Error("the host stops and could not write its last changes to the state database: they are lost",
			"path", p.db.Path(), "channels", len(b.Channels()), "err", err)
	case first:
		s.h.log.Error("cannot write the state database; serving from memory until it is writable again", "path", p.db.Path(), "err", err)
	}
	s.requeue(b)
	p.wanted = true
	// Every failure ends the turns it could not save, not only the first:
	// a reply started while the disk stays full would otherwise complete
	// as if saved. The requeued batch holds the earlier ones' channels,
	// whose turns have ended already.
	msg := "the host cannot save this chat (" + truncate(err.Error(), 200) + "); the reply was stopped, and what it shows is kept in memory only"
	for _, uri := range b.Channels() {
		ce := s.chats[uri]
		if ce == nil || ce.state.ActiveTurn == nil {
			continue
		}
		at := ce.state.ActiveTurn
		part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "storageFailed", Message: msg}, true)
		s.applyServerChat(ce, &ahpwire.ChatError{TurnID: at.ID, Duration: ahpwire.Ptr(s.turnDuration(ce)), Part: &part})
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
	p.wanted, p.closing = true, true
	h.mu.Unlock()
	h.commitOnce()
	if err := p.db.Close(); err != nil {
		h.log.Warn("closing the state database", "err", err)
	}
}
