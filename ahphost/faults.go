package ahphost

import (
	"sync"
	"sync/atomic"
	"time"
)

// faultState is the host's live fault-injection configuration.
type faultState struct {
	mu        sync.Mutex
	dropAfter int64
	dropAtSeq uint64
	firedSeq  uint64
	delay     time.Duration
	// armed is set while any of the faults above is armed, so the writer's
	// per-frame checks take no lock when none is (faults are for tests).
	armed atomic.Bool
}

// rearm updates armed after a change (f.mu held).
func (f *faultState) rearm() {
	f.armed.Store(f.delay != 0 || f.dropAfter != 0 || f.dropAtSeq != 0)
}

// DropAll closes every open connection abruptly, without a close frame, as
// a dead link would. Clients are expected to reconnect.
func (h *Host) DropAll() {
	h.mu.Lock()
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		h.log.Info("fault: dropping connection", "conn", c.id)
		_ = c.ws.CloseNow()
	}
}

// Outage simulates a host outage: every open connection is dropped
// abruptly (as DropAll) and new connections are refused with HTTP 503 for d,
// so that clients show their reconnect state before they recover. The demo
// fault key (AHPTUI_DEMO_FAULTS) uses it.
func (h *Host) Outage(d time.Duration) {
	h.refuseUntil.Store(time.Now().Add(d).UnixNano())
	h.DropAll()
}

// refusing reports whether an Outage is refusing new connections.
func (h *Host) refusing() bool { return time.Now().UnixNano() < h.refuseUntil.Load() }

// GoSilent makes the host stop answering for d: no frame is processed or
// written and no close is sent; afterwards it continues where it stopped.
// A client's ping then times out as on a silently dead link.
func (h *Host) GoSilent(d time.Duration) {
	h.silentUntil.Store(time.Now().Add(d).UnixNano())
}

// SetFrameDelay delays every outbound frame by d (0 turns it off).
func (h *Host) SetFrameDelay(d time.Duration) {
	h.faults.mu.Lock()
	h.faults.delay = d
	h.faults.rearm()
	h.faults.mu.Unlock()
}

// DropAfterFrames arms a fault: every current and future connection is
// closed abruptly after writing n more frames (0 disarms it).
func (h *Host) DropAfterFrames(n int) {
	h.faults.mu.Lock()
	h.faults.dropAfter = int64(n)
	h.faults.rearm()
	h.faults.mu.Unlock()
	h.mu.Lock()
	for c := range h.conns {
		c.dropBase.Store(c.framesOut.Load())
	}
	h.mu.Unlock()
}

// DropAtServerSeq arms a one-shot fault: the first connection about to write
// an action envelope with serverSeq ≥ seq is closed abruptly instead, as is
// every other connection about to write that same envelope (0 disarms it).
// Reconnecting clients receive the envelope in their replay.
func (h *Host) DropAtServerSeq(seq uint64) {
	h.faults.mu.Lock()
	h.faults.dropAtSeq = seq
	h.faults.firedSeq = 0
	h.faults.rearm()
	h.faults.mu.Unlock()
}

func (h *Host) frameDelay() time.Duration {
	if !h.faults.armed.Load() {
		return 0
	}
	h.faults.mu.Lock()
	defer h.faults.mu.Unlock()
	return h.faults.delay
}

// dropAfter reports whether c has reached the DropAfterFrames budget.
func (h *Host) dropAfter(c *conn) bool {
	if !h.faults.armed.Load() {
		return false
	}
	h.faults.mu.Lock()
	n := h.faults.dropAfter
	h.faults.mu.Unlock()
	return n > 0 && c.framesOut.Load()-c.dropBase.Load() >= n
}

// dropAtSeq reports whether the envelope with serverSeq seq must not be
// written because the DropAtServerSeq fault fires.
func (h *Host) dropAtSeq(seq uint64) bool {
	if !h.faults.armed.Load() {
		return false
	}
	h.faults.mu.Lock()
	defer h.faults.mu.Unlock()
	f := &h.faults
	if f.dropAtSeq == 0 || seq < f.dropAtSeq {
		return false
	}
	if f.firedSeq == 0 {
		f.firedSeq = seq
		return true
	}
	return seq == f.firedSeq
}

// scheduleSilence starts the Faults.SilentAfter/SilentFor timer when the
// host starts listening. The caller holds h.lnMu; the goroutine ends when
// the silence begins or the host closes.
func (h *Host) scheduleSilence() {
	f := h.opts.Faults
	if f.SilentFor <= 0 {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTimer(f.SilentAfter)
		defer t.Stop()
		select {
		case <-t.C:
			h.log.Info("fault: going silent", "for", f.SilentFor)
			h.GoSilent(f.SilentFor)
		case <-h.ctx.Done():
		}
	}()
}
