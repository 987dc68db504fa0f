// The write-ahead rule of a durable host (issue 28): nothing a connection
// writes reflects a serverSeq the database does not hold. Every outbound
// message records the host's serverSeq when it was queued (outMsg.at: its
// own serverSeq for an action envelope, the current one for a response,
// snapshot or notification); the connection's writer holds it until a
// commit covering that serverSeq has been synced (persister.durable).
// Actions are grouped: whatever was stamped while one commit was being
// synced goes in the next, so a streaming reply costs one transaction per
// group of deltas, not per delta. After a crash the host restarts at the
// last committed serverSeq, which is at least the highest any client saw,
// so no serverSeq is ever reused for a different action and no client
// holds an action the host forgot. An answer that shows only what the
// database holds already (resourceRead of a resource a commit wrote:
// deferred.stored) waits for nothing: a client reading the pages of a
// reply as their parts arrive is not held one commit per page.

package ahphost

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
