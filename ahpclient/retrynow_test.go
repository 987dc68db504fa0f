package ahpclient

import (
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

// While the client waits out a long reconnect backoff, ConnState.NextRetry
// says when the attempt is due, and RetryNow makes it happen at once: the
// client is back on the real host long before the backoff would have ended.
func TestRetryNowCutsBackoffShort(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	const wait = time.Minute
	o.Backoff = BackoffPolicy{Initial: wait, Max: wait, Rand: func() float64 { return 0.5 }}
	c, a := startClient(t, o)
	if c.RetryNow() {
		t.Fatal("RetryNow while connected reported a backoff to cut short")
	}

	dropped := time.Now()
	h.DropAll()
	evs := a.waitFor("reconnecting with a next retry", 10*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool {
			return e.State.Phase == Reconnecting && !e.State.NextRetry.IsZero()
		})
	})
	var st ConnState
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Reconnecting {
			st = s.State
		}
	}
	if st.Attempt != 1 {
		t.Fatalf("attempt = %d, want 1", st.Attempt)
	}
	if until := st.NextRetry.Sub(dropped); until < wait/4 || until > wait+time.Second {
		t.Fatalf("NextRetry is %v after the drop, want about the %v backoff", until, wait)
	}
	if got := c.State(); got.Phase != Reconnecting || !got.NextRetry.Equal(st.NextRetry) {
		t.Fatalf("State() = %+v, want the announced Reconnecting state", got)
	}

	if !c.RetryNow() {
		t.Fatal("RetryNow during the backoff reported nothing to cut short")
	}
	// Back within the wait, far shorter than the one-minute backoff: only
	// RetryNow can have cut it short.
	a.waitFor("connected again", 10*time.Second, func(evs []Event) bool {
		return countState(evs, Connected) >= 2
	})
	if st := c.State(); st.Phase != Connected || !st.NextRetry.IsZero() {
		t.Fatalf("State() = %+v, want Connected without NextRetry", st)
	}
}
