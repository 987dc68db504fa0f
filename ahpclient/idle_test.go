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
			o.PingInterval, o.PingTimeout = 50*time.Millisecond, 100*time.Millisecond
			c, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			k := consume(t, c)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			if n := countState(k.snapshot(), Reconnecting); n != 0 {
				t.Fatalf("idle link reconnected %d times: %s", n, describeTail(k.snapshot(), 6))
			}
			_ = c.Close()
		})
	}
}
