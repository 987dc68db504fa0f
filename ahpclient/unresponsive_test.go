package ahpclient

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

// TestUnresponsiveAsSoonAsOverdue: a host that stops answering (its
// process stopped) is reported as unresponsive as soon as a request or
// ping is overdue — long before the dead-link check gives up on it — and
// no longer once it answers again.
func TestUnresponsiveAsSoonAsOverdue(t *testing.T) {
	h, u := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, u)
	o.PingInterval, o.PingTimeout = 100*time.Millisecond, 20*time.Second // grace = 2s
	c, _ := startClient(t, o)
	if d := c.Unresponsive(); d != 0 {
		t.Fatalf("Unresponsive = %v on a live host", d)
	}
	h.GoSilent(4 * time.Second)
	deadline := time.After(10 * time.Second)
	for c.Unresponsive() == 0 {
		select {
		case <-deadline:
			t.Fatal("a silent host was never reported unresponsive")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if c.State().Phase != Connected {
		t.Fatalf("state %v: the report must come before the link is given up", c.State())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("ping after the silence: %v", err)
	}
	if d := c.Unresponsive(); d != 0 {
		t.Fatalf("Unresponsive = %v after the host answered", d)
	}
}
