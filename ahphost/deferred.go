package ahphost

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// snapRef is a channel snapshot captured under h.mu: the channel's state
// value (immutable: the reducers are copy-on-write) and its serverSeq. It
// is encoded outside the lock, by the connection's writer, so a large
// snapshot never stalls other clients.
type snapRef struct {
	uri   string
	state any
	seq   uint64
	// turnsOffset is, for a chat, the index in the full chat of the first
	// turn in state (turns before it are behind turnsNextCursor).
	turnsOffset int
}

// deferred is a handler result that is encoded by the connection's writer
// goroutine, outside h.mu: results holding snapshots or replayed envelopes.
// Its response keeps its place in the connection's queue, so envelopes
// emitted after the request are still written after it.
type deferred struct {
	// build returns the result value; limit is the largest message the
	// peer accepts, and build stops with *tooLargeError once the encoded
	// parts exceed it (so no more than about limit bytes are ever built).
	build func(limit int64) (any, error)
	// light marks a result known to be small (no chat snapshot, a short
	// replay): it is built at once, without waiting for a build slot.
	light bool
	// rollback, when set, undoes the request's state changes if the answer
	// cannot be delivered (an error replaces it): a failed handshake or
	// subscribe changes no state. It runs with h.mu held.
	rollback func()
	// stored marks an answer that shows only what a durable host's
	// database holds already (a resource a commit wrote): the write-ahead
	// rule does not hold it for the next commit (persist_writeahead.go).
	stored bool
}

// lightRefs reports whether refs hold no chat state (root and session
// snapshots are small).
func lightRefs(refs []snapRef) bool {
	for _, r := range refs {
		if _, ok := r.state.(ahpwire.ChatState); ok {
			return false
		}
	}
	return true
}

// tooLargeError reports a result above the peer's message limit.
type tooLargeError struct{ size, limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("result of at least %d bytes exceeds the peer's limit of %d", e.size, e.limit)
}

// snapshotOverhead is what each snapshot and the result around them add
// beyond the encoded states (keys, URIs, seqs), generously.
const snapshotOverhead = 512

// encodeSnapshots encodes refs in order within limit bytes in total. Chat
// snapshots are windowed by bytes (AHP turn windows): when a chat's turns
// do not fit its share of the budget, only the newest turns that fit are
// sent and turnsNextCursor points at the rest, which the client pages in
// with fetchTurns. It fails with *tooLargeError only when even the states
// without their finished turns do not fit. It also returns each
// snapshot's turnsNextCursor ("" for none and for non-chat channels).
func encodeSnapshots(refs []snapRef, limit int64) ([]ahpwire.Snapshot, []string, error) {
	out := make([]ahpwire.Snapshot, len(refs))
	cursors := make([]string, len(refs))
	remaining := limit - 256
	chats := 0
	// Non-chat channels first: they are small and are never windowed.
	for i, r := range refs {
		if _, ok := r.state.(ahpwire.ChatState); ok {
			chats++
			continue
		}
		snap, err := ahpwire.NewSnapshot(r.uri, r.state, r.seq)
		if err != nil {
			return nil, nil, err
		}
		remaining -= int64(len(snap.State)+len(r.uri)) + snapshotOverhead
		if remaining < 0 {
			return nil, nil, &tooLargeError{size: limit - remaining, limit: limit}
		}
		out[i] = snap
	}
	for i, r := range refs {
		st, ok := r.state.(ahpwire.ChatState)
		if !ok {
			continue
		}
		share := remaining/int64(chats) - int64(len(r.uri)) - snapshotOverhead
		w, err := windowChatBytes(st, r.turnsOffset, share)
		if tl, ok := err.(*tooLargeError); ok {
			// Report against the peer's limit, not this chat's share of it.
			return nil, nil, &tooLargeError{size: tl.size + (limit - share), limit: limit}
		}
		if err != nil {
			return nil, nil, err
		}
		snap, err := ahpwire.NewSnapshot(r.uri, w, r.seq)
		if err != nil {
			return nil, nil, err
		}
		remaining -= int64(len(snap.State)+len(r.uri)) + snapshotOverhead
		chats--
		if remaining < 0 {
			return nil, nil, &tooLargeError{size: limit - remaining, limit: limit}
		}
		out[i], cursors[i] = snap, w.TurnsNextCursor
	}
	return out, cursors, nil
}

// windowChatBytes keeps the newest finished turns of st whose encoding fits
// in budget bytes together with the rest of the state; offset is the index
// of st.Turns[0] in the full chat. Only about budget bytes are encoded.
func windowChatBytes(st ahpwire.ChatState, offset int, budget int64) (ahpwire.ChatState, error) {
	bare := st
	bare.Turns = nil
	base, err := json.Marshal(bare)
	if err != nil {
		return st, err
	}
	size := int64(len(base)) + 16
	if size > budget {
		return st, &tooLargeError{size: size, limit: budget}
	}
	k := len(st.Turns)
	for k > 0 {
		b, err := json.Marshal(st.Turns[k-1])
		if err != nil {
			return st, err
		}
		if size+int64(len(b))+1 > budget {
			break
		}
		size += int64(len(b)) + 1
		k--
	}
	if k > 0 {
		st.Turns = st.Turns[k:]
		st.TurnsNextCursor = encodeCursor("t", int64(offset+k))
	}
	return st, nil
}

// messageLimit is the largest message the peer accepts: its
// maxIncomingMessageBytes with chunking, else one frame of the host's
// ceiling (larger answers become -32050).
func (c *conn) messageLimit() int64 {
	if c.h.opts.MaxSnapshotBytes > 0 {
		return min(c.h.opts.MaxSnapshotBytes, c.peerLimit())
	}
	return c.peerLimit()
}

// peerLimit is messageLimit without the host's own MaxSnapshotBytes.
func (c *conn) peerLimit() int64 {
	if cp := c.recvCap.Load(); cp != nil {
		return cp.MaxIncomingMessageBytes
	}
	return c.h.opts.MaxFrameBytes
}

// buildDeferred encodes a deferred response in the writer goroutine. When
// the result cannot be built or is too large for the peer, the request's
// state changes are rolled back and an error answer is returned instead
// (-32050 MessageTooLarge, or -32603). A result encoded already (a kept
// resourceRead answer, rescache.go) is not copied: the response is then
// head, body and answerTail (joinAnswer), else head alone (body nil).
func (c *conn) buildDeferred(m *outMsg) (head, body []byte) {
	d := m.deferred
	m.deferred = nil
	if hookBuildDeferred != nil {
		hookBuildDeferred(c)
	}
	// At most buildSlots results are built at once host-wide: their
	// transient memory (a few times the result) stays bounded however many
	// clients ask for large snapshots together.
	if !d.light {
		select {
		case c.h.buildSem <- struct{}{}:
		case <-c.ctx.Done():
			return nil, nil
		}
		defer func() { <-c.h.buildSem }()
	}
	limit := c.messageLimit()
	res, err := d.build(limit)
	if enc, ok := res.(encodedResult); ok && err == nil {
		head = answerHead(*m.id)
		if n := int64(len(head) + len(enc) + len(answerTail)); n > limit {
			err = &tooLargeError{size: n, limit: limit}
		} else {
			return head, enc
		}
	}
	var data []byte
	if err == nil {
		data, err = resultFrame(*m.id, res)
		if err == nil && int64(len(data)) > limit {
			err = &tooLargeError{size: int64(len(data)), limit: limit}
		}
	}
	if err == nil {
		return data, nil
	}
	if d.rollback != nil {
		c.h.mu.Lock()
		d.rollback()
		c.h.mu.Unlock()
	}
	var e *ahpwire.Message
	if f, ok := err.(rpcFailure); ok {
		e = ahpwire.NewError(*m.id, f.e.code, f.e.msg, f.e.data)
	} else if tl, ok := err.(*tooLargeError); ok {
		c.h.log.Warn("response too large for client; answering MessageTooLarge",
			"conn", c.id, "size", tl.size, "limit", tl.limit)
		e = ahpwire.NewError(*m.id, segment.CodeMessageTooLarge, "message too large",
			map[string]int64{"size": tl.size, "limit": tl.limit})
	} else {
		c.h.log.Error("cannot encode result", "conn", c.id, "err", err)
		e = ahpwire.NewError(*m.id, ahpwire.CodeInternalError, "cannot encode result", nil)
	}
	b, _ := json.Marshal(e)
	return b, nil
}

// buildSlots is the number of deferred results built concurrently.
const buildSlots = 2

// resultFrame encodes a JSON-RPC success response around result with one
// encoding pass (no re-encoding of the result bytes).
// (A kept answer, an encodedResult, never comes here: buildDeferred
// writes it around its head as it is.)
func resultFrame(id uint64, result any) ([]byte, error) {
	body, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return joinAnswer(answerHead(id), body), nil
}

// answerTail ends a response after its result.
var answerTail = []byte{'}'}

// answerHead is a success response up to its result.
func answerHead(id uint64) []byte {
	const head = `{"jsonrpc":"2.0","id":`
	out := make([]byte, 0, len(head)+32)
	out = append(out, head...)
	out = strconv.AppendUint(out, id, 10)
	return append(out, `,"result":`...)
}

// joinAnswer is the response of head and body (body nil: head is all of it).
func joinAnswer(head, body []byte) []byte {
	if body == nil {
		return head
	}
	out := make([]byte, 0, len(head)+len(body)+len(answerTail))
	return append(append(append(out, head...), body...), answerTail...)
}

// encodedResult is a result already encoded as JSON (built once, shared).
type encodedResult []byte

// hookBuildDeferred, when set (tests), runs before every deferred build.
var hookBuildDeferred func(*conn)

// undoHandshake returns the connection to its state before initialize or
// reconnect: not initialized, no subscriptions, and nothing queued that
// was emitted for them. h.mu is held.
func (c *conn) undoHandshake() {
	c.h.st.connGone(c)
	c.subs = make(map[string]subscription)
	c.ready, c.clientID, c.version = false, "", ""
	c.recvCap.Store(nil)
	c.q.dropActions()
}
