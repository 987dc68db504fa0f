package acp

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// maxChunkLine is the longest line the reader looks at: a longer one goes
// to the SDK as it is read (its scanner bounds a line to 10 MiB).
const maxChunkLine = 64 << 10

// agentReader is the agent's stdout as the SDK reads it. It reads whole
// lines: text chunks (chunks.go) it maps itself, coalesced; every other
// line it hands to the SDK, in order, and it reads the pipe only while
// fewer than maxUpdatesInFlight of those are unhandled (flow.go).
type agentReader struct {
	r    io.Reader
	dl   interface{ SetReadDeadline(time.Time) error } // r's, nil when it has none
	flow *updateFlow
	c    *client

	buf        []byte
	start, end int  // buf[start:end]: read, not yet looked at
	out0, out1 int  // buf[out0:out1]: lines the SDK reads next
	long       bool // inside a line too long to look at
	err        error
	deadline   bool          // a read deadline is set on r
	caughtUp   bool          // the last read emptied the pipe
	nap        time.Duration // how long the pipe may fill before the next read (fill)

	line chunkLine
	co   coalesced
}

// newAgentReader reads the agent's stdout r for the client c.
func newAgentReader(r io.Reader, flow *updateFlow, c *client) *agentReader {
	ar := &agentReader{r: r, flow: flow, c: c, nap: coalesceWindow}
	if dl, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok {
		ar.dl = dl
	}
	return ar
}

func (ar *agentReader) Read(p []byte) (int, error) {
	for {
		if ar.out0 < ar.out1 {
			n := copy(p[:min(len(p), maxFlowRead)], ar.buf[ar.out0:ar.out1])
			ar.out0 += n
			ar.flow.count(p[:n])
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

// next looks at the whole lines read: it takes text chunks and sets out
// to the lines for the SDK. It reports false when it needs more bytes.
func (ar *agentReader) next() bool {
	progress := false
	for ar.start < ar.end {
		b := ar.buf[ar.start:ar.end]
		nl := bytes.IndexByte(b, '\n')
		if ar.long {
			n := len(b)
			if nl >= 0 {
				n, ar.long = nl+1, false
			}
			ar.handOut(n)
			return true
		}
		if nl < 0 {
			if len(b) < maxChunkLine {
				return progress
			}
			if ar.out0 < ar.out1 {
				return true
			}
			ar.long = true
			continue
		}
		chunk := parseChunk(b[:nl], &ar.line)
		req := !chunk && isRequest(b[:nl])
		if ar.out0 < ar.out1 { // gathering lines for the SDK
			if chunk || req || ar.out1-ar.out0 >= maxFlowRead {
				return true // they go first
			}
			ar.out1 += nl + 1
			ar.start += nl + 1
			continue
		}
		progress = true
		if chunk && ar.flow.idle() {
			if !ar.co.take(&ar.line) {
				ar.flush()
				ar.co.take(&ar.line)
			}
			ar.start += nl + 1
			if len(ar.co.text) >= maxCoalesced {
				ar.flush()
			}
			continue
		}
		if req {
			// The SDK serves a request at once, concurrently with the
			// updates it has not handled yet: it waits for them, so that
			// an agent's request never overtakes what it sent before
			// (a terminal released before the tool call showing it).
			ar.flush()
			ar.flow.waitIdle()
		}
		ar.handOut(nl + 1)
	}
	return progress
}

// isRequest reports whether line is a JSON-RPC request (a method and an
// id that is not null, names matched as encoding/json matches them); it
// checks no more than that.
func isRequest(line []byte) bool {
	id, method := false, false
	jsonscan.Object(line, func(name []byte, i int) (int, bool) {
		end, ok := jsonscan.SkipStructural(line, i)
		switch {
		case !ok:
			return i, false
		case jsonscan.FoldEqual(name, "id"):
			id = string(line[i:end]) != "null"
		case jsonscan.FoldEqual(name, "method"):
			method = true
		}
		return end, true
	})
	return id && method
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

// readGrace bounds a read at the end of a coalescing window: it takes
// what the pipe holds.
const readGrace = 100 * time.Microsecond

// fill reads more of the pipe (at most maxFlowRead), once fewer than
// maxUpdatesInFlight lines are unhandled. While text is held, it first
// lets the rest of the window's chunks gather in the pipe (one wake-up
// instead of one per line), then takes what is there without waiting.
func (ar *agentReader) fill() {
	if ar.buf == nil {
		ar.buf = make([]byte, maxChunkLine+maxFlowRead)
	}
	if ar.start > 0 { // out is empty here
		ar.end = copy(ar.buf, ar.buf[ar.start:ar.end])
		ar.start, ar.out0, ar.out1 = 0, 0, 0
	}
	if ar.co.held && (ar.dl == nil || time.Since(ar.co.since) >= coalesceWindow) {
		ar.flush()
	}
	ar.flow.hold() // nothing is held: text is taken only while no update is in flight
	napped := false
	switch {
	case ar.co.held:
		end := ar.co.since.Add(coalesceWindow)
		if ar.caughtUp { // the pipe was empty: let the window's chunks gather
			time.Sleep(min(ar.nap, time.Until(end)))
			end, napped = time.Now().Add(readGrace), true
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
	want := min(len(ar.buf), ar.end+maxFlowRead) - ar.end
	n, err := ar.r.Read(ar.buf[ar.end : ar.end+want])
	ar.end += n
	ar.caughtUp = n < want
	if napped { // a full read after a nap: the agent writes fast, nap less
		switch {
		case n == want:
			ar.nap = max(ar.nap/2, readGrace)
		case n < want/4:
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
