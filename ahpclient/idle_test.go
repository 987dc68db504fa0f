package ahpclient

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

func TestIdleLinkStaysUp(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	for _, via := range []string{"direct", "proxy"} {
		t.Run(via, func(t *testing.T) {
			u := url
			if via == "proxy" {
				u = newDropProxy(t, url, 0).URL()
			}
			o := testOptions(t, u)
			// A ping every 50 ms, a second to answer it: a loaded machine
			// stalls this process (host and client) past 100 ms now and
			// then, which is no dead link (issue 32).
			o.PingInterval, o.PingTimeout = 50*time.Millisecond, time.Second
			c, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			k := consume(t, c)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			c.mu.Lock()
			link := c.cur
			c.mu.Unlock()
			// The link stays idle while the heartbeat judges it, ping after
			// ping, for twice the silence it allows.
			need := int64(2 * (o.PingInterval + o.PingTimeout) / o.PingInterval)
			for link.pongs.Load() < need && countState(k.snapshot(), Reconnecting) == 0 {
				if ctx.Err() != nil {
					t.Fatalf("%d of %d pings answered in 60 s", link.pongs.Load(), need)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if n := countState(k.snapshot(), Reconnecting); n != 0 {
				t.Fatalf("idle link reconnected %d times after %d pings: %s", n, link.pongs.Load(), describeTail(k.snapshot(), 6))
			}
			_ = c.Close()
		})
	}
}
