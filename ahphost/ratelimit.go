package ahphost

import (
	"sync"
	"time"
)

// Rate of WARN lines about rejected connections: a burst of
// rejectLogBurst, then one per rejectLogEvery. Lines that are dropped are
// counted and reported ("suppressed") on the next line that is written, so
// an unauthenticated peer cannot flood the log but no rejection goes
// unaccounted.
const (
	rejectLogBurst = 5
	rejectLogEvery = time.Second
)

// logLimiter is a token bucket for log lines.
type logLimiter struct {
	mu         sync.Mutex
	tokens     float64
	last       time.Time
	suppressed int64
}

// allow reports whether a line may be written now and, if so, how many
// lines were suppressed since the last one.
func (l *logLimiter) allow(now time.Time) (ok bool, suppressed int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last.IsZero() {
		l.tokens = rejectLogBurst
	} else {
		l.tokens = min(rejectLogBurst, l.tokens+float64(now.Sub(l.last))/float64(rejectLogEvery))
	}
	l.last = now
	if l.tokens < 1 {
		l.suppressed++
		return false, 0
	}
	l.tokens--
	s := l.suppressed
	l.suppressed = 0
	return true, s
}

// warnRejected logs a rejected connection at WARN, rate-limited.
func (h *Host) warnRejected(msg string, args ...any) {
	ok, suppressed := h.rejectLog.allow(time.Now())
	if !ok {
		return
	}
	if suppressed > 0 {
		args = append(args, "suppressed", suppressed)
	}
	h.log.Warn(msg, args...)
}
