package ahpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/coder/websocket"
)

// The read path of a conn: its one reader goroutine, frame processing
// with panics recovered, reassembly and the mapping of read errors.

// readLoop is the only reader of the socket.
func (k *conn) readLoop() {
	defer k.wg.Done()
	defer func() { // give unfinished groups' bytes back to the client's budget
		k.reasmMu.Lock()
		k.reasm.Reset()
		k.reasmMu.Unlock()
	}()
	var buf bytes.Buffer
	limit := k.cl.cfg.MaxFrameBytes
	for {
		// Background: a cancellable ctx costs a timer per frame in
		// coder/websocket; fail() unblocks the read with CloseNow.
		_, r, err := k.ws.Reader(context.Background())
		if err != nil {
			k.fail(k.classifyReadErr(err))
			return
		}
		buf.Reset()
		if _, err := buf.ReadFrom(r); err != nil {
			k.fail(k.classifyReadErr(err))
			return
		}
		if k.eof != nil && k.eof.Seen() {
			// coder/websocket v1.8.15 (read.go) ends a message at the
			// peer's EOF as if it were complete when the EOF falls between
			// fragments or before a frame's payload: what was read may be
			// the first fragments only. A complete message never needs a
			// read past its last byte, so an EOF seen while reading it
			// means it was cut off.
			k.cl.log.Warn("host closed the connection in the middle of a message; discarded", "bytes", buf.Len())
			k.fail(errors.New("ahpclient: connection closed by host in the middle of a message"))
			return
		}
		k.busy.Store(true)
		k.lastRead.Store(k.cl.cfg.Now().UnixNano())
		if int64(buf.Len()) > limit { // defensive: the read limit already enforces it
			k.fail(&FrameTooLargeError{Limit: limit})
			return
		}
		if err := k.processSafely(buf.Bytes()); err != nil {
			k.fail(err)
			return
		}
		k.lastRead.Store(k.cl.cfg.Now().UnixNano())
		k.busy.Store(false)
		if buf.Cap() > keepReadBuf && buf.Len() <= keepReadBuf/16 {
			buf = bytes.Buffer{} // a burst of large messages ended: do not keep its buffer
		}
	}
}

// keepReadBuf is the largest read buffer kept once the messages are small
// again (a large one grows it up to the frame limit).
const keepReadBuf = 1 << 20

// processSafely is processFrame with panics recovered: no frame from a host
// may crash the client. A recovered panic is logged and returned as a
// *ProtocolError, which ends the connection; the supervisor reconnects.
func (k *conn) processSafely(frame []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			k.cl.log.Error("panic while handling a frame from the host; reconnecting",
				"panic", fmt.Sprint(r), "bytes", len(frame), "stack", string(debug.Stack()))
			err = &ProtocolError{Detail: fmt.Sprintf("internal error (panic) handling a %d-byte frame", len(frame))}
		}
	}()
	return k.processFrame(frame)
}

// processFrame feeds one received frame to the reassembler and handles the
// message it completes, if any. A non-nil error ends the connection.
func (k *conn) processFrame(frame []byte) error {
	msg, reassembled, err := k.feed(frame)
	if err != nil {
		k.cl.log.Warn("invalid messageSegment; closing", "err", err)
		return &ProtocolError{Detail: "invalid messageSegment", Err: err}
	}
	if msg == nil {
		return nil
	}
	if h := k.cl.cfg.frameHook; h != nil {
		h(msg)
	}
	if reassembled {
		// The JSON-RPC check of a reassembled message is made where it is
		// parsed (takeReassembled); a violation closes with 4400.
		violation, err := k.takeReassembled(msg)
		if violation != nil {
			k.cl.log.Warn("invalid messageSegment; closing", "err", violation)
			return &ProtocolError{Detail: "invalid messageSegment", Err: violation}
		}
		return err
	}
	return k.handle(msg)
}

// feed hands frame to the reassembler (FeedUnchecked: a reassembled message
// is checked where it is parsed). The unlock is deferred so that a panic on
// hostile input (recovered by processSafely) cannot leave the lock held.
func (k *conn) feed(frame []byte) ([]byte, bool, error) {
	k.reasmMu.Lock()
	defer k.reasmMu.Unlock()
	return k.reasm.FeedUnchecked(frame)
}

// classifyReadErr maps a read error to the client's error types.
func (k *conn) classifyReadErr(err error) error {
	if k.ctx.Err() != nil {
		if f := k.failure(); f != nil {
			return f
		}
	}
	if errors.Is(err, websocket.ErrMessageTooBig) {
		lim := k.cl.cfg.MaxFrameBytes
		user, _ := k.inflight()
		k.cl.log.Error("frame exceeds the receive ceiling; closing", "limit", lim, "userRequestPending", user)
		return &FrameTooLargeError{Limit: lim, userPending: user}
	}
	if st := websocket.CloseStatus(err); st == websocket.StatusMessageTooBig {
		user, size := k.inflight()
		if size >= outboundFloor && size > k.cl.hostAccepted.Load() {
			k.cl.learnOutLimit(size - 1)
			k.cl.log.Error("host closed the link for an oversized frame from this client", "size", size)
			return &FrameTooLargeError{Remote: true, Outbound: true, Size: size}
		}
		k.cl.log.Error("host closed the link for an oversized frame")
		return &FrameTooLargeError{Remote: true, userPending: user}
	} else if st == CloseSlowConsumer {
		k.cl.log.Warn("host closed the link: this client read too slowly; reconnecting")
		return fmt.Errorf("%w (close %d)", ErrSlowConsumer, int(st))
	} else if st != -1 {
		return fmt.Errorf("ahpclient: host closed the connection (%d %s)", int(st), st)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("ahpclient: connection closed by host")
	}
	return fmt.Errorf("ahpclient: read: %w", err)
}
