package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// The SDK queues every notification it reads and hands them to the client
// one by one on another goroutine; it never stops reading, and a queue of
// 1024 unhandled notifications closes the connection (a real agent's long
// reply in small chunks reached it). The bridge therefore reads the
// agent's stdout itself (agentReader): it handles every session/update as
// it reads it, on the SDK's reading goroutine — text chunks without the
// SDK and coalesced (chunks.go), other updates decoded as the SDK decodes
// them — and hands the SDK only the other lines (requests, answers, other
// notifications). The pipe holds the agent back while an update is
// handled, as a slow terminal would, and everything the agent sends is
// handled in its order: a request reaches the SDK (which serves it at
// once) only after the updates sent before it.

// Bounds of the reader.
const (
	// maxLine is the longest line the reader looks at, the SDK's own
	// bound: a longer one goes to the SDK as it is read, which closes
	// the connection.
	maxLine = 10 << 20
	// readSize is the reader's buffer for lines of ordinary length; a
	// longer line grows it, and the buffer is dropped after it.
	readSize = 64 << 10
	// readGrace bounds a read at the end of a coalescing window: it takes
	// what the pipe holds.
	readGrace = 100 * time.Microsecond
	// napFull is what a nap may gather before the next one is shorter:
	// a quarter of a pipe's usual 64 KiB, so that a fast agent's writes
	// do not wait for a full pipe.
	napFull = 16 << 10
)

// updateMarker is in every session/update notification line (a quoted
// string holding it would have its quotes escaped).
var updateMarker = []byte(`"session/update"`)

// agentReader is the agent's stdout as the SDK reads it (see above).
type agentReader struct {
	r  io.Reader
	dl interface{ SetReadDeadline(time.Time) error } // r's, nil when it has none
	// avail is how many bytes r holds (pipe_linux.go), nil when unknown.
	avail func() int
	c     *client
	log   *slog.Logger

	buf        []byte
	start, end int  // buf[start:end]: read, not yet looked at
	scanned    int  // buf[start:scanned] holds no newline
	out0, out1 int  // buf[out0:out1]: lines the SDK reads next
	long       bool // inside a line over maxLine: it goes to the SDK as read
	err        error

	deadline bool          // a read deadline is set on r
	caughtUp bool          // the last read emptied the pipe
	nap      time.Duration // how long the pipe may fill before the next read (fill)

	line chunkLine
	co   coalesced
}

// newAgentReader reads the agent's stdout r for the client c.
func newAgentReader(r io.Reader, c *client) *agentReader {
	ar := &agentReader{r: r, c: c, log: c.b.sdkLogger(), nap: coalesceWindow}
	if dl, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok {
		ar.dl = dl
	}
	if av, ok := r.(interface{ available() int }); ok {
		ar.avail = av.available
	}
	return ar
}

func (ar *agentReader) Read(p []byte) (int, error) {
	for {
		if ar.out0 < ar.out1 {
			n := copy(p, ar.buf[ar.out0:ar.out1])
			ar.out0 += n
			return n, nil
		}
		if ar.next() {
			continue
		}
		if ar.err != nil { // the end: what is held, the last bytes, the error
			ar.flush()
			if ar.start < ar.end {
				ar.out0, ar.out1, ar.start = ar.start, ar.end, ar.end
				continue
			}
			return 0, ar.err
		}
		ar.fill()
	}
}

// next handles the whole lines read: updates here, the other lines set
// out for the SDK. It reports false when it needs more bytes.
func (ar *agentReader) next() bool {
	progress := false
	for ar.start < ar.end {
		from := max(ar.scanned, ar.start)
		nl := bytes.IndexByte(ar.buf[from:ar.end], '\n')
		if nl >= 0 {
			nl += from - ar.start
		}
		if ar.long {
			n := ar.end - ar.start
			if nl >= 0 {
				n, ar.long = nl+1, false
			}
			ar.handOut(n)
			return true
		}
		if nl < 0 {
			ar.scanned = ar.end
			if ar.end-ar.start <= maxLine {
				return progress
			}
			if ar.out0 < ar.out1 {
				return true
			}
			ar.long = true
			continue
		}
		line := ar.buf[ar.start : ar.start+nl]
		chunk := parseChunk(line, &ar.line)
		if ar.out0 < ar.out1 { // gathering lines for the SDK
			// What may be an update waits until they went first; it is
			// decoded then, once.
			if chunk || bytes.Contains(line, updateMarker) {
				return true
			}
			if key, req := requestKey(line); req && !ar.c.pending.admit(key, len(line), false) {
				return true // (it waits for room once they went)
			}
			ar.c.peek(line)
			ar.out1 += nl + 1
			ar.start += nl + 1
			continue
		}
		var n *sdk.SessionNotification
		var err error
		if !chunk {
			n, err = decodeUpdate(line)
		}
		update := n != nil
		progress = true
		switch {
		case chunk:
			if !ar.co.take(&ar.line) {
				ar.flush()
				ar.co.take(&ar.line)
			}
			ar.start += nl + 1
			if len(ar.co.text) >= maxCoalesced {
				ar.flush()
			}
		case update:
			ar.flush()
			ar.start += nl + 1
			if err != nil { // as the SDK reports a notification it cannot read
				ar.log.Error("failed to handle notification", "method", sdk.ClientMethodSessionUpdate, "err", err)
				continue
			}
			_ = ar.c.SessionUpdate(ar.c.b.ctx, *n)
		default:
			if key, req := requestKey(line); req && !ar.admit(key, len(line)) {
				return false
			}
			ar.c.peek(line)
			ar.handOut(nl + 1)
		}
	}
	return progress
}

// decodeUpdate returns the params of line when it is a session/update
// notification (read as the SDK reads a line), decoded as the SDK decodes
// them, else nil; err is the SDK's reason to drop the update. Lines the
// SDK could not read at all are not updates: the SDK reports them.
func decodeUpdate(line []byte) (*sdk.SessionNotification, error) {
	if !bytes.Contains(line, updateMarker) {
		return nil, nil
	}
	var msg rpcMessage
	if json.Unmarshal(line, &msg) != nil || msg.ID != nil || msg.Method != sdk.ClientMethodSessionUpdate {
		return nil, nil
	}
	n := &sdk.SessionNotification{}
	if err := json.Unmarshal(msg.Params, n); err != nil {
		return n, err //nolint:wrapcheck // logged as the SDK logs it
	}
	return n, n.Validate() //nolint:wrapcheck // as above
}

// admit counts a request for the SDK (unanswered.go), waiting while too
// many are unanswered. When the agent was stopped meanwhile, the reading
// ends: what was read of it is dropped.
func (ar *agentReader) admit(key []byte, size int) bool {
	if ar.c.pending.admit(key, size, false) {
		return true
	}
	ar.flush() // (the text held is shown while it waits)
	if ar.c.pending.admit(key, size, true) {
		return true
	}
	ar.start, ar.end, ar.scanned = 0, 0, 0
	ar.err = errStopped
	return false
}

// handOut makes the next n bytes the SDK's, after the text held.
func (ar *agentReader) handOut(n int) {
	ar.flush()
	ar.out0, ar.out1 = ar.start, ar.start+n
	ar.start += n
}

// flush maps the text held.
func (ar *agentReader) flush() {
	if !ar.co.held {
		return
	}
	ar.c.chunk(string(ar.co.session), ar.co.thought, string(ar.co.text))
	ar.co.text, ar.co.held = ar.co.text[:0], false
}

// fill reads more of the pipe. While text is held, it first lets the rest
// of the window's chunks gather in the pipe when the agent writes slowly
// (one wake-up instead of one per line), then takes what is there without
// waiting past the window: a pipe that tells how much it holds is read
// that much; a pollable one is read under a deadline; any other gets the
// text mapped before a read that may wait.
func (ar *agentReader) fill() {
	ar.compact()
	if ar.co.held && (time.Since(ar.co.since) >= coalesceWindow || (ar.dl == nil && ar.avail == nil)) {
		ar.flush()
	}
	napped := false
	if ar.co.held && ar.caughtUp { // the pipe was empty: let the window's chunks gather
		time.Sleep(min(ar.nap, time.Until(ar.co.since.Add(coalesceWindow))))
		napped = true
	}
	limit := len(ar.buf)
	switch {
	case ar.co.held && ar.avail != nil:
		if a := ar.avail(); a > 0 {
			limit = min(limit, ar.end+a)
		} else {
			ar.flush()
		}
	case ar.co.held:
		end := ar.co.since.Add(coalesceWindow)
		if napped {
			end = time.Now().Add(readGrace)
		}
		if ar.dl.SetReadDeadline(end) != nil {
			ar.dl = nil
			ar.flush()
		} else {
			ar.deadline = true
		}
	case ar.deadline:
		_ = ar.dl.SetReadDeadline(time.Time{})
		ar.deadline = false
	}
	want := limit - ar.end
	n, err := ar.r.Read(ar.buf[ar.end:limit])
	ar.end += n
	// Read to the end of what the pipe held, or what was asked for.
	ar.caughtUp = n < want || (ar.co.held && ar.avail != nil)
	if napped {
		// Much gathered during a nap: the agent writes fast, nap less.
		switch {
		case n >= napFull:
			ar.nap = max(ar.nap/2, readGrace)
		case n < napFull/4:
			ar.nap = min(ar.nap*2, coalesceWindow)
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, os.ErrDeadlineExceeded):
		ar.flush()
	default:
		ar.err = err
	}
}

// compact moves the bytes not looked at to the front of the buffer, which
// it makes (again) or grows for a long line. out is empty here.
func (ar *agentReader) compact() {
	if ar.start == ar.end && len(ar.buf) > readSize { // after a long line
		ar.buf = nil
	}
	if ar.buf == nil {
		ar.buf = make([]byte, readSize)
		ar.start, ar.end, ar.scanned = 0, 0, 0
	}
	if ar.start > 0 {
		ar.end = copy(ar.buf, ar.buf[ar.start:ar.end])
		ar.scanned = max(ar.scanned-ar.start, 0)
		ar.start, ar.out0, ar.out1 = 0, 0, 0
	}
	if ar.end == len(ar.buf) { // a line longer than the buffer, up to maxLine
		grown := make([]byte, min(2*len(ar.buf), maxLine+readSize))
		copy(grown, ar.buf[:ar.end])
		ar.buf = grown
	}
}
