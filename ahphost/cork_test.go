package ahphost

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// heldConn is a socket whose writes wait until it is closed and then
// succeed: the close released them before the socket was shut, the race a
// timed-out write can lose.
type heldConn struct {
	net.Conn
	closed chan struct{}
}

func (c *heldConn) Write(p []byte) (int, error) { <-c.closed; return len(p), nil }
func (c *heldConn) Close() error                { close(c.closed); return nil }

// TestCorkWriteOutlastingTimeoutFails: a write still blocked when the
// WriteTimeout fires is reported as timed out even if it then gets through,
// since the socket under it was closed.
func TestCorkWriteOutlastingTimeoutFails(t *testing.T) {
	c := &corkConn{Conn: &heldConn{closed: make(chan struct{})}, timeout: 20 * time.Millisecond}
	_, err := c.Write([]byte("frame"))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline error", err)
	}
}

// TestCorkHoldsUntilUncorkedWrite: corked writes wait in the cork and go
// out, in order, with the first uncorked write or a flush.
func TestCorkHoldsUntilUncorkedWrite(t *testing.T) {
	a, b := net.Pipe()
	defer func() { _ = a.Close(); _ = b.Close() }()
	c := &corkConn{Conn: a, timeout: time.Second}
	got := make(chan string, 4)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := b.Read(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	c.setCork(true)
	for _, s := range []string{"a", "b"} {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	c.setCork(false)
	if _, err := c.Write([]byte("c")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "abc" {
		t.Fatalf("one write of %q, want \"abc\"", s)
	}
	c.setCork(true)
	if _, err := c.Write([]byte("d")); err != nil {
		t.Fatal(err)
	}
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "d" {
		t.Fatalf("flush wrote %q, want \"d\"", s)
	}
}
