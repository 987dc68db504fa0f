package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// supervise keeps the client connected until Close: it waits for the live
// connection to end, settles the state it leaves behind, and reconnects with
// capped exponential backoff and jitter. Auth failures, version mismatches,
// a persistent oversized frame and exhausted attempts end in Failed.
func (c *Client) supervise(k *conn) {
	defer c.wg.Done()
	for {
		select {
		case <-k.done:
		case <-c.ctx.Done():
			k.fail(ErrClosed)
			k.wait()
			return
		}
		cause := k.cause()
		k.wait()
		c.onDisconnect(k, cause)
		if c.ctx.Err() != nil {
			return
		}
		next, ok := c.reconnectLoop(cause)
		if !ok {
			return
		}
		k = next
	}
}

// reconnectLoop retries until a new connection is up (true) or the client
// closes or gives up (false).
func (c *Client) reconnectLoop(cause error) (*conn, bool) {
	for attempt := 1; ; attempt++ {
		if stop := c.stopReason(cause); stop != nil {
			c.setState(ConnState{Phase: Failed, Err: stop})
			return nil, false
		}
		if max := c.cfg.Backoff.MaxAttempts; max > 0 && attempt > max {
			c.setState(ConnState{Phase: Failed, Err: fmt.Errorf("ahpclient: gave up after %d reconnect attempts: %w", max, cause)})
			return nil, false
		}
		if !c.backoff(attempt, cause) {
			return nil, false
		}
		k, rec, err := c.connectOnce(c.ctx)
		if err == nil {
			c.activate(k, rec)
			if c.ctx.Err() != nil {
				k.fail(ErrClosed)
				k.wait()
				return nil, false
			}
			return k, true
		}
		if c.ctx.Err() != nil {
			return nil, false
		}
		c.log.Info("reconnect attempt failed", "attempt", attempt, "err", c.maskErr(err))
		cause = err
	}
}

// backoff announces reconnect attempt number attempt (Reconnecting, with
// NextRetry) and waits out its delay; RetryNow ends the wait early. It
// reports whether the client is still open.
func (c *Client) backoff(attempt int, cause error) bool {
	d := c.cfg.Backoff.Delay(attempt)
	wake := make(chan struct{}, 1)
	c.mu.Lock()
	c.backoffWake = wake // before the state is published: RetryNow works once it is seen
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.backoffWake = nil
		c.mu.Unlock()
	}()
	c.setState(ConnState{Phase: Reconnecting, Attempt: attempt, Err: cause, NextRetry: c.cfg.Now().Add(d)})
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-wake:
		c.log.Info("reconnect backoff cut short (RetryNow)")
		return c.ctx.Err() == nil
	case <-c.ctx.Done():
		return false
	}
}

// RetryNow asks a reconnecting client to stop waiting out its backoff and
// try the next attempt at once. It reports whether the client was waiting
// out a backoff (Reconnecting, before ConnState.NextRetry); otherwise it
// does nothing. It never blocks and is safe from any goroutine.
func (c *Client) RetryNow() bool {
	c.mu.Lock()
	wake := c.backoffWake
	c.mu.Unlock()
	if wake == nil {
		return false
	}
	select {
	case wake <- struct{}{}:
	default: // one request is already pending
	}
	return true
}

// stopReason returns the Failed reason if cause must stop reconnecting, or
// nil to reconnect. Auth and version failures and a root state too large
// for this client always stop; an oversized frame stops when it is the
// same one coming back (see recordOversize). Everything else, including a
// host closing the link with CloseSlowConsumer, reconnects.
func (c *Client) stopReason(cause error) error {
	var ae *AuthError
	var ve *VersionError
	if errors.As(cause, &ae) || errors.As(cause, &ve) {
		return cause
	}
	var mt *MessageTooLargeError
	if errors.As(cause, &mt) && mt.Op == ahpwire.MethodInitialize {
		// Even the root channel alone is too large for this client.
		return fmt.Errorf("ahpclient: stopped reconnecting: the host cannot send the root state within this client's limits; enable chunking or raise the receive ceiling (--max-frame-bytes): %w", cause)
	}
	var ft *FrameTooLargeError
	if !errors.As(cause, &ft) || ft.Outbound || ft.userPending {
		// An outbound frame the host refused, or the answer to an
		// application request: that request failed, nothing comes back
		// by itself after reconnecting.
		return nil
	}
	return c.recordOversize(ft)
}

// recordOversize counts an oversized frame the host would send again by
// itself in the oversize streak and returns a *PersistentOversizeError once
// it happened twice in a row at the same serverSeq.
func (c *Client) recordOversize(ft *FrameTooLargeError) error {
	at := c.seq.processedSeq()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.oversize.count > 0 && c.oversize.at == at {
		c.oversize.count++
	} else {
		c.oversize = oversizeStreak{count: 1, at: at}
	}
	if c.oversize.count < 2 {
		return nil
	}
	return &PersistentOversizeError{Limit: ft.Limit, LastSeenServerSeq: at, Occurrences: c.oversize.count,
		HostChunking: c.hostChunk != nil, ClientChunking: c.cfg.chunking != nil, Remote: ft.Remote}
}

// oversizeResetIfProgress clears the oversize streak once the stream moved
// past the point where it happened (processed is seq.processedSeq()).
// c.mu must be held.
func (c *Client) oversizeResetIfProgress(processed uint64) {
	if c.oversize.count > 0 && processed > c.oversize.at {
		c.oversize = oversizeStreak{}
	}
}

// onDisconnect settles what a dead connection leaves behind: pending
// subscribes are aborted and sent-but-unechoed dispatches become Uncertain.
func (c *Client) onDisconnect(k *conn, cause error) {
	c.sendMu.Lock()
	c.mu.Lock()
	if c.cur == k {
		c.cur = nil
	}
	c.mu.Unlock()
	c.sendMu.Unlock()
	c.seq.abortAllPending()
	terr := &TransportError{Op: "dispatchAction", Cause: cause}
	for _, e := range c.ob.withStatus(OutboxSent) {
		if ne, ok := c.ob.transition(e.ClientSeq, OutboxUncertain, c.maskErr(terr), 0, OutboxSent); ok {
			c.emit(OutboxEvent{Entry: ne}, controlEvent)
		}
	}
	c.log.Warn("connection lost", "err", c.maskErr(cause))
}

// heartbeat pings the host every PingInterval. The link is dead (a silent
// drop) when a ping gets no answer within PingTimeout and nothing else
// arrived meanwhile, or when no frame at all arrived for
// PingInterval+PingTimeout: the connection is failed and the supervisor
// reconnects. While the read loop is busy with a frame or paused by a slow
// consumer the link cannot be judged and the check is skipped. Nor is it
// judged when the heartbeat itself ran that much late (woken long after
// its tick or its ping's deadline, though less than a sleeping machine's
// gap): this process was stalled (a loaded machine), the silence is the
// stall's and an answer may wait unread; the next ping judges the link. It also sweeps abandoned segment groups.
func (k *conn) heartbeat() {
	defer k.wg.Done()
	cfg := k.cl.cfg
	t := time.NewTicker(cfg.PingInterval)
	defer t.Stop()
	last := cfg.Now() // when the previous round ended
	for {
		select {
		case <-k.ctx.Done():
			return
		case <-t.C:
		}
		k.reasmMu.Lock()
		swept := k.reasm.Sweep()
		k.reasmMu.Unlock()
		if swept > 0 {
			k.cl.log.Warn("dropped abandoned segment groups", "groups", swept)
		}
		now := cfg.Now()
		// Late by more than the silence allowed, yet not so late that the
		// machine rather slept (a suspended laptop's link is judged at
		// once on waking, as before).
		allowed := cfg.PingInterval + cfg.PingTimeout
		gap := now.Sub(last)
		late := gap > allowed && gap < 4*allowed
		last = now
		if k.readerStalled() {
			continue
		}
		_, gen := k.cl.q.producerBlocked()
		silence := now.Sub(time.Unix(0, k.lastRead.Load()))
		if silence > cfg.PingInterval+cfg.PingTimeout && !late {
			k.fail(&DeadLinkError{Silence: silence})
			return
		}
		sent := now.UnixNano()
		ctx, cancel := context.WithTimeout(k.ctx, cfg.PingTimeout)
		_, err := k.call(ctx, ahpwireMethodPing, pingParams, nil)
		cancel()
		last = cfg.Now()
		if err == nil {
			k.pongs.Add(1)
		}
		if err == nil || k.ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			continue // answered (an error answer proves liveness too) or closing
		}
		if k.readerStalled() || k.lastRead.Load() > sent {
			continue
		}
		if _, g := k.cl.q.producerBlocked(); g != gen {
			continue
		}
		if w := last.Sub(time.Unix(0, sent)); w > cfg.PingTimeout*3/2 && w < 4*allowed {
			continue // woken long past the deadline: stalled
		}
		k.fail(&DeadLinkError{PingTimeout: cfg.PingTimeout})
		return
	}
}

// readerStalled reports whether the read loop is busy with a frame or
// waiting for the consumer, so silence says nothing about the link.
func (k *conn) readerStalled() bool {
	if k.busy.Load() {
		return true
	}
	blocked, _ := k.cl.q.producerBlocked()
	return blocked
}
