package ahpclient

import (
	"testing"
	"time"
)

func TestBackoffDelayGrowsAndCaps(t *testing.T) {
	p := BackoffPolicy{Initial: 100 * time.Millisecond, Max: time.Second, Multiplier: 2, Jitter: -1}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w*time.Millisecond {
			t.Fatalf("attempt %d: got %v want %v", i+1, got, w*time.Millisecond)
		}
	}
}

func TestBackoffJitterUsesInjectedSource(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want time.Duration
	}{{0, 50 * time.Millisecond}, {0.5, 75 * time.Millisecond}, {0.999999, 100 * time.Millisecond}} {
		p := BackoffPolicy{Initial: 100 * time.Millisecond, Max: time.Second, Jitter: 0.5, Rand: func() float64 { return tc.r }}
		got := p.Delay(1)
		if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("r=%v: got %v want %v", tc.r, got, tc.want)
		}
	}
}

func TestBackoffDefaultsAndBounds(t *testing.T) {
	var p BackoffPolicy
	for a := -1; a < 200; a++ {
		d := p.Delay(a)
		if d <= 0 || d > DefaultBackoffMax {
			t.Fatalf("attempt %d: delay %v out of (0, %v]", a, d, DefaultBackoffMax)
		}
	}
	bad := BackoffPolicy{Initial: time.Second, Max: time.Millisecond, Rand: func() float64 { return 7 }}
	if d := bad.Delay(3); d != 500*time.Millisecond { // out-of-range rand counts as 0
		t.Fatalf("max below initial: got %v want 500ms", d)
	}
}
