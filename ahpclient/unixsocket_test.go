package ahpclient

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

// TestUnixSocketURL: a ws+unix:///path URL dials the host listening on
// that Unix socket (token in the query), and the URL shown keeps the
// ws+unix form without the token.
func TestUnixSocketURL(t *testing.T) {
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: "tok-unix-1234"})
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "ahp.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix sockets unavailable: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })

	c, err := New(testOptions(t, "ws+unix://"+sock+"?tkn=tok-unix-1234"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := c.Start(sctx); err != nil {
		t.Fatalf("start over the socket: %v", err)
	}
	if _, err := c.ListSessions(sctx, 10, ""); err != nil {
		t.Fatalf("listSessions: %v", err)
	}
	if got := c.URL(); got != "ws+unix://"+sock || strings.Contains(got, "tok-") {
		t.Fatalf("URL() = %q", got)
	}

	// A wrong token is refused, and a missing socket is a dial error.
	bad, _ := New(testOptions(t, "ws+unix://"+sock+"?tkn=wrong-token"))
	defer bad.Close()
	if err := bad.Start(sctx); err == nil {
		t.Fatal("wrong token accepted")
	}
	gone, _ := New(testOptions(t, "ws+unix://"+sock+".missing"))
	defer gone.Close()
	err = gone.Start(sctx)
	if err == nil || !strings.Contains(err.Error(), "unix socket") {
		t.Fatalf("missing socket: %v", err)
	}
	for _, u := range []string{"ws+unix://host/path", "ws+unix://"} {
		if _, err := New(Options{URL: u}); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}
