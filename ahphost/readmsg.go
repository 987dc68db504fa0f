package ahphost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
	"github.com/coder/websocket"
)

// errReadBudget reports that the bytes held by unfinished incoming messages
// across all connections reached Options.MaxPendingReadBytes.
var errReadBudget = errors.New("host-wide budget for unfinished incoming messages exhausted")

// errMessageTimeout reports a message that was not complete within
// Options.MessageReadTimeout of its first frame.
var errMessageTimeout = errors.New("incoming message not completed in time")

// A message's buffer starts at readFirst bytes and doubles up to
// readChunk, then grows by at least readChunk at a time (at most 4 MiB).
// Requests are mostly a few hundred bytes: a first buffer of 32 KiB was
// cleared for each of them (with fifty clients each reading the pages of
// a long reply, a tenth of the host's CPU).
const (
	readFirst = 1 << 10
	readChunk = 32 << 10
)

// readMessage reads one complete message. Waiting for a message has no
// deadline (the keep-alive detects dead links), but once its first frame
// header has arrived the whole message (all its fragments) must arrive
// within MessageReadTimeout, so a peer trickling a fragmented message byte
// by byte is cut off. The buffer grows with the data received, and every
// byte of it is charged to the host-wide MaxPendingReadBytes budget; the
// caller returns the charge (release) once the message has been handled.
//
// The reads take no context of their own: coder/websocket arms a context's
// expiry for every read that has one, and each message took a context, a
// timer and a channel (readMessage fell from 0.13 to 0.10 s of a 50-client
// host's CPU over ten 3 MB replies, BenchmarkServeFanout). The connection
// is closed instead when its context ends (newConn's context.AfterFunc)
// or the message's time runs out (msgTimer, one per connection).
func (c *conn) readMessage() (typ websocket.MessageType, data []byte, charge int64, err error) {
	h := c.h
	typ, r, err := c.ws.Reader(context.Background())
	if err != nil {
		return 0, nil, 0, err
	}
	if c.msgTimer == nil {
		c.msgTimer = time.AfterFunc(h.opts.MessageReadTimeout, func() {
			c.msgTimedOut.Store(true)
			_ = c.ws.CloseNow()
		})
	} else {
		c.msgTimer.Reset(h.opts.MessageReadTimeout)
	}
	defer c.msgTimer.Stop()
	release := func() { h.pendingRead.Add(-charge) }
	for {
		if len(data) == cap(data) {
			old := int64(cap(data))
			size := int64(readFirst)
			if old >= readChunk {
				size = old + min(old, 4<<20)
			} else if old > 0 {
				size = 2 * old
			}
			// The first readChunk bytes of every message are not charged
			// (at most MaxConnections × 32 KiB in all), so peers holding the
			// budget cannot lock others out of small messages (pings,
			// commands); only growth beyond it is.
			if grow := max(size-readChunk, 0) - max(old-readChunk, 0); grow > 0 {
				if h.pendingRead.Add(grow) > h.opts.MaxPendingReadBytes {
					h.pendingRead.Add(-grow)
					release()
					return 0, nil, 0, errReadBudget
				}
				charge += grow
			}
			nb := make([]byte, len(data), size)
			copy(nb, data)
			data = nb
		}
		n, rerr := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if rerr == io.EOF {
			if c.eof.Seen() {
				release()
				return 0, nil, 0, errCutMessage
			}
			return typ, data, charge, nil
		}
		if rerr != nil {
			release()
			if c.msgTimedOut.Load() {
				return 0, nil, 0, errMessageTimeout
			}
			return 0, nil, 0, rerr
		}
	}
}

// quickParse parses a single-frame message as parseReassembled does, into
// p; false (p unset) when it is not a well-formed JSON-RPC message
// ahpwire.Message can hold, which c.handle then answers.
func quickParse(b []byte, p *reassembledMsg) bool {
	r, err := parseReassembled(b)
	if err != nil || r.m == nil || r.undecodable != nil {
		return false
	}
	*p = r
	return true
}

// reassembledMsg is a reassembled message parsed by parseReassembled.
type reassembledMsg struct {
	m           *ahpwire.Message
	nullID      bool  // an "id" member that is null
	undecodable error // valid JSON-RPC that ahpwire.Message cannot hold (e.g. a string id)
}

// parseReassembled parses a message Reassembler.FeedUnchecked returned,
// validating it once, where it is parsed: segment.ParseMessage checks
// what Feed would have (exactly one JSON-RPC 2.0 message, valid UTF-8, no
// duplicate or case-folded envelope member, not a segment) and locates the
// members, which become the ahpwire.Message without a second parse by
// encoding/json. A non-nil error is a segment violation (close with
// segment.CloseCode); a message that is valid JSON-RPC but undecodable is
// answered by route as handle answers it.
func parseReassembled(b []byte) (reassembledMsg, error) {
	p, err := segment.ParseMessage(b)
	if err != nil {
		return reassembledMsg{}, fmt.Errorf("reassembled message: %w", err)
	}
	m, err := ahpwire.MessageFromMembers(p.JSONRPC, p.ID, p.Method, p.Params, p.Result, p.Error)
	if err != nil {
		return reassembledMsg{undecodable: err}, nil
	}
	return reassembledMsg{m: m, nullID: p.ID != nil && m.ID == nil}, nil
}
