package render

import (
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Elapsed times without clocks.
//
// The reducer's blocks carry no timestamps (AHP records none per part), and
// the package never reads a clock. The Renderer therefore notes ViewOpts.Now
// the first time it renders a thinking block or a tool call in a live state
// (thinking that is the message's last block while the message streams, a
// tool call that is not terminal) and the first time it renders the same
// block in its final state. Live lines show Now minus the first sighting
// ("Thinking… 3s"); final lines show the span between the two sightings
// ("Thought for 12s"). The first block of a message starts with the turn,
// so its live sighting is backdated to Message.StartedAt (when that is not
// after Now): a turn joined mid-way, after a reconnect, still counts from
// its start. Blocks never seen live (history, snapshots) show no duration
// ("Thought"); the turn's own duration is on the usage line. A zero Now
// records nothing. Given the same sequence of calls the output is the same.
//
// A tool call's pill shows its execution time, not its age: the span from
// its first sighting running to its first sighting past running (result
// review, completed, cancelled), so the time a user took to approve it is
// left out; while it waits for approval, review or sign-in the pill says so
// and shows no timer (see observeTool and toolDuration).

// blockTimes are the sightings of one block. Tool calls also note when
// they were first seen waiting for approval (wait), running (run) and past
// running (done), so that their duration is the execution time and not
// the time the user took to decide.
type blockTimes struct {
	live, final     time.Time
	wait, run, done time.Time
}

// maxTimes bounds the sighting table; when full, entries of finished blocks
// are dropped first.
const maxTimes = 1 << 16

// observe records a sighting of key in the given state and returns the
// times known so far. start, when not zero and not after now, is when the
// block is known to have started (see startHint); a first live sighting
// then counts from it.
func (r *Renderer) observe(k BlockKey, live bool, now, start time.Time) blockTimes {
	t := r.times[k]
	if now.IsZero() {
		return t
	}
	switch {
	case live && t.live.IsZero():
		t.live = now
		if !start.IsZero() && !start.After(now) {
			t.live = start
		}
	case !live && !t.live.IsZero() && t.final.IsZero():
		t.final = now
	default:
		return t
	}
	if len(r.times) >= maxTimes {
		for key, v := range r.times {
			if !v.final.IsZero() {
				delete(r.times, key)
			}
		}
	}
	r.times[k] = t
	return t
}

// observeTool records a sighting of a tool call (see observe) and the
// phase sightings of its execution.
func (r *Renderer) observeTool(k BlockKey, tc *ahpwire.ToolCallState, now, start time.Time) blockTimes {
	t := r.observe(k, !tc.IsTerminal(), now, start)
	if now.IsZero() {
		return t
	}
	switch {
	case tc.Status == ahpwire.ToolPendingConfirmation:
		if !t.wait.IsZero() {
			return t
		}
		t.wait = now
	case tc.Status == ahpwire.ToolRunning || tc.Status == ahpwire.ToolAuthRequired:
		if !t.run.IsZero() {
			return t
		}
		t.run = now
	case tc.Status != ahpwire.ToolStreaming && !t.run.IsZero() && t.done.IsZero():
		t.done = now
	default:
		return t
	}
	r.times[k] = t
	return t
}

// ran returns how long a tool call executed: from its first sighting
// running to its first sighting past running. A call never seen running
// but also never seen waiting for approval (approved automatically, done
// between two frames) falls back to its whole live span.
func (t blockTimes) ran() (time.Duration, bool) {
	switch {
	case !t.run.IsZero() && !t.done.IsZero():
		return t.done.Sub(t.run), true
	case t.run.IsZero() && t.wait.IsZero():
		return t.took()
	}
	return 0, false
}

// runningFor returns how long a running tool call has executed at now.
func (t blockTimes) runningFor(now time.Time) (time.Duration, bool) {
	if t.run.IsZero() || now.IsZero() || now.Before(t.run) {
		return 0, false
	}
	return now.Sub(t.run), true
}

// liveFor returns how long a live block has been live at now.
func (t blockTimes) liveFor(now time.Time) (time.Duration, bool) {
	if t.live.IsZero() || now.IsZero() || now.Before(t.live) {
		return 0, false
	}
	return now.Sub(t.live), true
}

// took returns how long the block was live, when both sightings exist.
func (t blockTimes) took() (time.Duration, bool) {
	if t.live.IsZero() || t.final.IsZero() {
		return 0, false
	}
	return t.final.Sub(t.live), true
}

// fmtDuration formats a duration compactly: "850ms", "3.2s", "42s",
// "2m05s", "1h02m".
func fmtDuration(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
		fallthrough
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

// fmtSeconds formats a live counter in whole seconds ("3s", "1m05s").
func fmtSeconds(d time.Duration) string {
	d = d.Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmtDuration(d)
}
