package ahpclient

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

func TestSmokeConnect(t *testing.T) {
	_, url := startHost(t, ahphost.Options{})
	c, err := New(testOptions(t, url))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	k := consume(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	evs := k.waitFor("sessions", 15*time.Second, func(evs []Event) bool {
		for _, e := range evs {
			if _, ok := e.(SessionsEvent); ok {
				return true
			}
		}
		return false
	})
	for _, e := range evs {
		t.Log(describe(e))
	}
}
