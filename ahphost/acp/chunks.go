package acp

import (
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// A model's reply reaches the bridge as one session/update line per
// 20–60 bytes of text: tens of thousands of lines for a long answer.
// Through the SDK, every line was decoded twice (the JSON-RPC envelope,
// then the update and its content block, each a generic union, by trial)
// and handed from the SDK's reading goroutine to its notification
// goroutine, and every chunk became one AHP action. The bridge's reader
// (reader.go) instead recognises the lines that are a plain text chunk —
// exactly {"jsonrpc":"2.0","method":"session/update","params":{
// "sessionId":S,"update":{"sessionUpdate":"agent_message_chunk" or
// "agent_thought_chunk","content":{"type":"text","text":T}}}}, members in
// any order, no other member — decodes them with jsonscan, and maps the
// text of consecutive chunks of one session and kind as one chunk: those
// that arrive within coalesceWindow. Any other line ends the run (the
// text held is mapped first), so the order of everything the agent sends
// is kept.

// coalesceWindow bounds how long the reader holds chunk text while more
// may come: chunks that arrive within it become one AHP action.
const coalesceWindow = 4 * time.Millisecond

// maxCoalesced bounds the text held before it is mapped.
const maxCoalesced = 64 << 10

// chunkLine is a text chunk line as parseChunk read it; its slices point
// into the line.
type chunkLine struct {
	session []byte // the ACP session id (a string without escapes)
	thought bool   // agent_thought_chunk, else agent_message_chunk
	text    []byte // the text's JSON string body (validated)
	esc     bool   // text holds escapes
}

// Members of parseChunk's objects, as bits of a seen-set.
const (
	mJSONRPC = 1 << iota
	mMethod
	mParams
	mSession
	mUpdate
	mKind
	mContent
	mType
	mText
)

// parseChunk reports whether line is a text chunk notification (see the
// top of this file) and reads it into c. Anything else — another member,
// a member twice, an escaped session id or kind, invalid JSON or UTF-8 —
// is not one, and goes to the SDK.
func parseChunk(line []byte, c *chunkLine) bool {
	seen := 0
	once := func(m int) bool {
		if seen&m != 0 {
			return false
		}
		seen |= m
		return true
	}
	str := func(i int, want string) (int, bool) {
		end, is, ok := jsonscan.StringIs(line, i, want)
		return end, ok && is
	}
	content := func(name []byte, i int) (int, bool) {
		switch string(name) {
		case "type":
			if !once(mType) {
				return i, false
			}
			return str(i, "text")
		case "text":
			if !once(mText) || i >= len(line) || line[i] != '"' {
				return i, false
			}
			end, esc, ok := jsonscan.ScanString(line, i)
			if !ok {
				return i, false
			}
			c.text, c.esc = line[i+1:end-1], esc
			return end, true
		}
		return i, false
	}
	update := func(name []byte, i int) (int, bool) {
		switch string(name) {
		case "sessionUpdate":
			if !once(mKind) || i >= len(line) || line[i] != '"' {
				return i, false
			}
			end, esc, ok := jsonscan.ScanString(line, i)
			if !ok || esc {
				return i, false
			}
			switch string(line[i+1 : end-1]) {
			case "agent_message_chunk":
				c.thought = false
			case "agent_thought_chunk":
				c.thought = true
			default:
				return i, false
			}
			return end, true
		case "content":
			if !once(mContent) {
				return i, false
			}
			return jsonscan.ObjectAt(line, i, content)
		}
		return i, false
	}
	params := func(name []byte, i int) (int, bool) {
		switch string(name) {
		case "sessionId":
			if !once(mSession) || i >= len(line) || line[i] != '"' {
				return i, false
			}
			end, esc, ok := jsonscan.ScanString(line, i)
			if !ok || esc {
				return i, false
			}
			c.session = line[i+1 : end-1]
			return end, true
		case "update":
			if !once(mUpdate) {
				return i, false
			}
			return jsonscan.ObjectAt(line, i, update)
		}
		return i, false
	}
	ok := jsonscan.Object(line, func(name []byte, i int) (int, bool) {
		switch string(name) {
		case "jsonrpc":
			if !once(mJSONRPC) {
				return i, false
			}
			return str(i, "2.0")
		case "method":
			if !once(mMethod) {
				return i, false
			}
			return str(i, sdk.ClientMethodSessionUpdate)
		case "params":
			if !once(mParams) {
				return i, false
			}
			return jsonscan.ObjectAt(line, i, params)
		}
		return i, false
	})
	return ok && seen == mJSONRPC|mMethod|mParams|mSession|mUpdate|mKind|mContent|mType|mText
}

// coalesced is the chunk text the reader holds: consecutive chunks of one
// session and kind.
type coalesced struct {
	session []byte
	thought bool
	text    []byte    // decoded
	since   time.Time // when the first chunk was taken
	held    bool      // a chunk was taken (its text may be empty)
}

// take adds a chunk; it reports false (taking nothing) when the chunk is
// of another session or kind than the text held.
func (co *coalesced) take(c *chunkLine) bool {
	if co.held && (co.thought != c.thought || string(co.session) != string(c.session)) {
		return false
	}
	if !co.held {
		co.session = append(co.session[:0], c.session...)
		co.thought, co.since, co.held = c.thought, time.Now(), true
	}
	if c.esc {
		co.text = jsonscan.Unescape(co.text, c.text)
	} else {
		co.text = append(co.text, c.text...)
	}
	return true
}

// chunk maps the text of chunk notifications the reader took (one or
// more, coalesced) as SessionUpdate maps one.
func (c *client) chunk(sessionID string, thought bool, text string) {
	s := c.b.sessionByACP(sdk.SessionId(sessionID))
	if s == nil || text == "" {
		return
	}
	s.mu.Lock()
	rp := s.replay
	s.mu.Unlock()
	if rp != nil {
		u := sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.TextBlock(text)}}
		if thought {
			u = sdk.SessionUpdate{AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: sdk.TextBlock(text)}}
		}
		rp.add(u)
		return
	}
	tm := s.activeTurn()
	switch {
	case tm == nil:
	case thought:
		tm.thought(text)
	default:
		tm.text(text)
	}
}
