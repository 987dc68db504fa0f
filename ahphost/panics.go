package ahphost

import (
	"fmt"
	"runtime/debug"

	"github.com/coder/websocket"
)

// guard runs fn and converts a panic into an error carrying the stack, so
// that one bad message can never leave a half-dead connection behind. It
// must be called without h.mu held; handlers release their locks with
// defer, so the lock is free again when guard returns.
func guard(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	fn()
	return nil
}

// failConn logs a recovered panic, stops every broadcast to the connection
// at once and closes it with 1011 (internal error). The reader then
// returns and removeConn finishes the clean-up. From the reader goroutine
// (sync) the close handshake runs in place; from elsewhere the connection
// is cut.
func (c *conn) failConn(where string, err error, sync bool) {
	h := c.h
	h.log.Error("internal error; closing connection", "conn", c.id, "in", where, "err", err)
	h.mu.Lock()
	h.st.connGone(c)
	c.subs = make(map[string]subscription)
	h.mu.Unlock()
	c.q.close()
	if sync {
		_ = c.ws.Close(websocket.StatusInternalError, "internal error")
		return
	}
	c.cancel()
	_ = c.ws.CloseNow()
}
