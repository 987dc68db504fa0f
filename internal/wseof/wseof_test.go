package wseof

import (
	"io"
	"net"
	"testing"
)

// TestWatchSeesTheEnd: on a connection (server side) and on an upgraded
// body (client side), whole reads leave the Watch unmarked and the read
// that meets the stream's end marks it.
func TestWatchSeesTheEnd(t *testing.T) {
	var none *Watch
	if none.Seen() {
		t.Fatal("a nil Watch saw an end")
	}
	for name, wrap := range map[string]func(*Watch, net.Conn) io.Reader{
		"conn": func(w *Watch, c net.Conn) io.Reader { return w.Conn(c) },
		"body": func(w *Watch, c net.Conn) io.Reader { return w.Body(c) },
	} {
		a, b := net.Pipe()
		w := &Watch{}
		r := wrap(w, a)
		go func() { _, _ = b.Write([]byte("hi")); _ = b.Close() }()
		buf := make([]byte, 2)
		if _, err := io.ReadFull(r, buf); err != nil || w.Seen() {
			t.Fatalf("%s: a whole read: %v, seen %v", name, err, w.Seen())
		}
		if _, err := r.Read(buf); err == nil || !w.Seen() {
			t.Fatalf("%s: the end was not seen (err %v)", name, err)
		}
		_ = a.Close()
	}
}
