package ahphost

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/internal/wseof"
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

// TestCorkHoldsUntilUncorkedWrite: frames written with more to follow
// wait in the cork and go out, in order, with the first frame that has
// none, a control frame of the library's, or a flush.
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
	for _, s := range []string{"a", "b"} {
		if err := c.writeFrame(true, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.writeFrame(false, []byte("c")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "\x81\x01a\x81\x01b\x81\x01c" {
		t.Fatalf("one write of %q, want the three frames", s)
	}
	if err := c.writeFrame(true, []byte("d")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte{0x8a, 0}); err != nil { // the library's pong
		t.Fatal(err)
	}
	if s := <-got; s != "\x81\x01d\x8a\x00" {
		t.Fatalf("the pong wrote %q, want the held frame then the pong", s)
	}
	if err := c.writeFrame(true, []byte("e")); err != nil {
		t.Fatal(err)
	}
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "\x81\x01e" {
		t.Fatalf("flush wrote %q, want the held frame", s)
	}
	if _, err := c.Write([]byte{opClose, 0}); err != nil { // the library's close frame
		t.Fatal(err)
	}
	<-got
	if err := c.writeFrame(false, []byte("f")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("a data frame after the close frame: err = %v, want net.ErrClosed", err)
	}
}

// framesInParts are frames written from several parts: a kept answer's
// head, page and tail (small, bigger than the cork, one byte), and parts
// that fill the cork between them.
var framesInParts = [][][]byte{
	{[]byte(`{"id":7,"result":`), bytes.Repeat([]byte("p"), corkBytes+100), []byte("}")},
	{bytes.Repeat([]byte("q"), corkBytes-10), bytes.Repeat([]byte("r"), 20), []byte("s")},
	{[]byte(`{"id":8,"result":`), bytes.Repeat([]byte("t"), corkBytes/2+1), []byte("}")},
}

// TestCorkFramesReadByTheLibrary: the frames the cork builds, of every
// header length, past the cork's size and from parts, are read whole and
// in order by a real coder/websocket client over a real TCP connection.
func TestCorkFramesReadByTheLibrary(t *testing.T) {
	sizes := []int{0, 1, 125, 126, 127, 0xFFFF, 0x10000, corkBytes - 3, corkBytes + 1, 3 << 20}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cork := &corkConn{timeout: 5 * time.Second}
		ws, err := websocket.Accept(watchedWriter{ResponseWriter: w, w: &wseof.Watch{}, cork: cork}, r, nil)
		if err != nil {
			return
		}
		defer func() { _ = ws.CloseNow() }()
		for i, n := range sizes {
			if err := cork.writeFrame(i%3 != 2, bytes.Repeat([]byte{byte('a' + i)}, n)); err != nil {
				t.Errorf("frame %d: %v", i, err)
				return
			}
		}
		for _, parts := range framesInParts {
			if err := cork.writeFrame(true, parts...); err != nil {
				t.Error(err)
				return
			}
		}
		if err := cork.flush(); err != nil {
			t.Error(err)
		}
		_ = ws.Close(websocket.StatusNormalClosure, "done")
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.CloseNow() }()
	ws.SetReadLimit(8 << 20)
	for i, n := range sizes {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if typ != websocket.MessageText || !bytes.Equal(data, bytes.Repeat([]byte{byte('a' + i)}, n)) {
			t.Fatalf("frame %d: %v of %d bytes, want text of %d", i, typ, len(data), n)
		}
	}
	for i, parts := range framesInParts {
		_, data, err := ws.Read(ctx)
		if want := bytes.Join(parts, nil); err != nil || !bytes.Equal(data, want) {
			t.Fatalf("frame in parts %d: %d bytes (%v), want %d", i, len(data), err, len(want))
		}
	}
	if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("after the frames: %v, want a normal close", err)
	}
}
