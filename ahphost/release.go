package ahphost

import (
	"sync"
	"time"
)

// releaseState paces Options.ReleaseMemory. Giving memory back is a
// whole collection and a walk of the heap's free pages, and what is given
// back while the host streams is taken again at once (debug.FreeOSMemory
// after every long reply cost a sixth of a busy host's CPU, in the release
// and in faulting the pages back in). So a release waits until the host
// is quiet — no action sent for half of Options.ReleaseGap — but no more
// than releaseMaxWait, and runs at most once per ReleaseGap: requests
// meanwhile are one run.
type releaseState struct {
	due bool       // a run is scheduled or waiting (h.mu)
	mu  sync.Mutex // held by the run: one at a time
	at  time.Time  // when the last run ended (mu)
}

// releaseMaxWait is the longest a release waits for the host to be quiet.
const releaseMaxWait = time.Minute

// releaseMemory schedules Options.ReleaseMemory on its own goroutine,
// unless it is unset, the host is closed or a run is already due. h.mu is
// held (so Close cannot be waiting on wg while it is added to). While New
// builds the store (h.st is still nil: restore.go reads long replies from
// the database) nothing was streamed to give back, and the goroutine would
// read the store before it is set.
func (h *Host) releaseMemory() {
	rel := h.opts.ReleaseMemory
	if rel == nil || h.closed || h.release.due || h.st == nil {
		return
	}
	h.release.due = true
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		r := &h.release
		r.mu.Lock()
		defer r.mu.Unlock()
		if !h.awaitQuiet(r.at) {
			return
		}
		h.mu.Lock()
		r.due = false // a request from now on is a run of its own
		h.mu.Unlock()
		rel()
		r.at = time.Now()
	}()
}

// awaitQuiet waits until ReleaseGap after last and until the host has
// sent no action for half of it (releaseMaxWait at most). It returns false
// when the host closes.
func (h *Host) awaitQuiet(last time.Time) bool {
	gap := h.opts.releaseGap()
	quiet := gap / 2
	now := time.Now()
	until, latest := now.Add(quiet), now.Add(releaseMaxWait)
	if next := last.Add(gap); next.After(until) {
		until = next
	}
	seq := h.sentSeq()
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-h.ctx.Done():
			return false
		}
		cur := h.sentSeq()
		if cur == seq || !time.Now().Before(latest) {
			return true
		}
		seq = cur // still streaming: look again when it may have stopped
		t.Reset(min(quiet, time.Until(latest)))
	}
}

// sentSeq is the serverSeq of the host's last action.
func (h *Host) sentSeq() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.st.seq
}
