package ahphost

import (
	"github.com/coder/websocket"
)

// CloseSlowConsumer is the WebSocket close code (4008, "slow consumer") the
// host sends to a client that does not read fast enough: its outbound
// queue exceeded Options.QueueBytes or a frame write exceeded
// Options.WriteTimeout. It is a transient condition: clients treat it like
// a dropped link and reconnect.
const CloseSlowConsumer websocket.StatusCode = 4008

// slowConsumer closes c because it does not keep up: its queued messages
// are released at once (they hold the memory), then a 4008 close is sent
// behind the frame being written, if any, and the connection is cut. It is
// idempotent and does not block (callers may hold h.mu).
func (c *conn) slowConsumer(reason string, args ...any) {
	if !c.slow.CompareAndSwap(false, true) {
		return
	}
	c.h.log.Warn("slow consumer; closing connection",
		append([]any{"conn", c.id, "reason", reason, "code", int(CloseSlowConsumer)}, args...)...)
	c.q.close()
	c.h.wg.Add(1)
	go func() {
		defer c.h.wg.Done()
		// Close waits (bounded by the websocket library) for the frame in
		// flight and the peer's close reply; then the link is cut either way.
		_ = c.ws.Close(CloseSlowConsumer, "slow consumer")
		c.cancel()
		_ = c.ws.CloseNow()
	}()
}
