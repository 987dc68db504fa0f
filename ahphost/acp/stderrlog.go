package acp

import (
	"log/slog"
	"time"
)

// Bounds of the agent's stderr in the log.
const (
	// stderrLinesPerSecond is the rate of stderr lines logged, after a
	// burst of stderrBurst.
	stderrLinesPerSecond = 50
	stderrBurst          = 200
	// maxStderrLogBytes bounds the stderr bytes one agent process logs in
	// all; later lines are counted, not logged.
	maxStderrLogBytes = 8 << 20
)

// stderrLimiter is a token bucket of stderr lines and a byte budget.
type stderrLimiter struct {
	tokens  float64
	last    time.Time
	logged  int64 // bytes logged
	dropped int   // lines not logged since the last note
	noted   time.Time
	capped  bool // the byte budget ran out (said once)
	warned  bool // the first line not logged was noted
}

func newStderrLimiter(now time.Time) *stderrLimiter {
	return &stderrLimiter{tokens: stderrBurst, last: now, noted: now}
}

// allow reports whether a line of n bytes may be logged now.
func (l *stderrLimiter) allow(now time.Time, n int) bool {
	l.tokens = min(stderrBurst, l.tokens+now.Sub(l.last).Seconds()*stderrLinesPerSecond)
	l.last = now
	if l.tokens < 1 || l.logged+int64(n) > maxStderrLogBytes {
		l.dropped++
		return false
	}
	l.tokens--
	l.logged += int64(n)
	return true
}

// flush logs how many lines were not logged, if any.
func (l *stderrLimiter) flush(log *slog.Logger) {
	if l.dropped == 0 {
		return
	}
	capped := l.logged+maxStderrLine > maxStderrLogBytes
	if capped && l.capped {
		l.dropped = 0
		return // said once: the rest of this process's stderr is not logged
	}
	l.capped = capped
	log.Warn("agent stderr lines not logged (rate or size bound)", "lines", l.dropped,
		"rate", stderrLinesPerSecond, "budget_bytes", maxStderrLogBytes, "rest_dropped", capped)
	l.dropped = 0
}

// logStderr logs one stderr line (masked) within the limiter's bounds,
// and how many were not: at the first line not logged, then at most once
// a second.
func (b *Bridge) logStderr(l *stderrLimiter, line string) {
	now := time.Now()
	if l.allow(now, len(line)) {
		line = b.auth.mask(line)
		b.log.Info("agent stderr", "line", line)
		b.stderrLine(line) // a retry report becomes the turns' activity (retry.go)
	}
	if l.dropped > 0 && (!l.warned || now.Sub(l.noted) >= time.Second) {
		l.noted, l.warned = now, true
		l.flush(b.log)
	}
}
