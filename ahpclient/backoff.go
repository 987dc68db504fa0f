package ahpclient

import (
	"math/rand/v2"
	"time"
)

// Backoff defaults used for zero fields of BackoffPolicy.
const (
	DefaultBackoffInitial    = 250 * time.Millisecond
	DefaultBackoffMax        = 30 * time.Second
	DefaultBackoffMultiplier = 2.0
	DefaultBackoffJitter     = 0.5
)

// BackoffPolicy is the reconnect delay schedule: capped exponential growth
// with random jitter. Zero fields take the Default* values; the random
// source is injectable for deterministic tests.
type BackoffPolicy struct {
	// Initial is the delay before the first reconnect attempt.
	Initial time.Duration
	// Max caps every delay (after jitter).
	Max time.Duration
	// Multiplier grows the delay per attempt (values < 1 mean the default).
	Multiplier float64
	// Jitter is the fraction (0..1) of each delay that is randomised: the
	// delay is base*(1-Jitter) + base*Jitter*r with r uniform in [0,1).
	// A negative value disables jitter.
	Jitter float64
	// MaxAttempts stops reconnecting after this many consecutive failed
	// attempts (the client then reports Failed); 0 means retry forever.
	MaxAttempts int
	// Rand returns uniform values in [0,1); nil means math/rand/v2.
	Rand func() float64
}

// withDefaults fills zero fields.
func (p BackoffPolicy) withDefaults() BackoffPolicy {
	if p.Initial <= 0 {
		p.Initial = DefaultBackoffInitial
	}
	if p.Max <= 0 {
		p.Max = DefaultBackoffMax
	}
	if p.Max < p.Initial {
		p.Max = p.Initial
	}
	if p.Multiplier < 1 {
		p.Multiplier = DefaultBackoffMultiplier
	}
	if p.Jitter == 0 {
		p.Jitter = DefaultBackoffJitter
	}
	if p.Jitter < 0 {
		p.Jitter = 0
	}
	if p.Jitter > 1 {
		p.Jitter = 1
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	return p
}

// Delay returns the wait before reconnect attempt number attempt (1-based).
// The result is always in (0, Max].
func (p BackoffPolicy) Delay(attempt int) time.Duration {
	p = p.withDefaults()
	if attempt < 1 {
		attempt = 1
	}
	base := float64(p.Initial)
	for i := 1; i < attempt && base < float64(p.Max); i++ {
		base *= p.Multiplier
	}
	if base > float64(p.Max) {
		base = float64(p.Max)
	}
	r := p.Rand()
	if r < 0 || r >= 1 {
		r = 0
	}
	d := time.Duration(base*(1-p.Jitter) + base*p.Jitter*r)
	if d <= 0 {
		d = time.Millisecond
	}
	if d > p.Max {
		d = p.Max
	}
	return d
}
