package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
)

// TestResourceReaderSaysGone: over a real client and host, a content the
// host does not have (a body the state budget dropped, or one of a
// disposed session) reads as ErrGone, which says so in words, not as
// "jsonrpc error -32002: resource not found".
func TestResourceReaderSaysGone(t *testing.T) {
	h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: t.TempDir(), Agent: demo.Factory("", 0, nil)})
	if err != nil {
		t.Fatal(err)
	}
	url, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	c, err := ahpclient.New(ahpclient.Options{URL: url, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() { // drain events
		for {
			if _, err := c.Next(ctx); err != nil {
				return
			}
		}
	}()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = resourceReader(c)(ctx, "ahp-content:/gone/t1/after/a.go")
	if !errors.Is(err, ErrGone) {
		t.Fatalf("reading a content the host does not have: %v", err)
	}
}
