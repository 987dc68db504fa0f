package segment

import "github.com/ahptui/ahptui/internal/jsonscan"

// span locates one JSON value inside a frame. For strings, start/end delimit
// the body without the quotes.
type span struct {
	kind       byte // 0 absent, '"' string, 'n' number, 'o' anything else
	start, end int
	esc        bool // string contains escapes (or, for data, may contain them)
}

// is reports whether v is a string of b that decodes to want.
func (v span) is(b []byte, want string) bool {
	return v.kind == '"' && jsonscan.BodyIs(b[v.start:v.end], v.esc, want)
}

// envelope is the result of scanning the top level of one frame.
type envelope struct {
	jsonrpc, method, id, params span
	result, error               span
	groupID, index, total, data span
	dup                         bool // a member we care about appears twice (or folded)
	methodIsSegment             bool
	guessed                     bool // data's end was guessed (scanFrameGuess)
}

// member returns the span for envelope member k.
func (e *envelope) member(k jsonscan.Key) *span {
	switch k {
	case jsonscan.KeyJSONRPC:
		return &e.jsonrpc
	case jsonscan.KeyID:
		return &e.id
	case jsonscan.KeyMethod:
		return &e.method
	case jsonscan.KeyParams:
		return &e.params
	case jsonscan.KeyResult:
		return &e.result
	case jsonscan.KeyError:
		return &e.error
	}
	return nil
}

// scanMode selects how much envelope.scan validates.
type scanMode int

const (
	// scanFrame validates everything except the body of params.data.
	scanFrame scanMode = iota
	// scanStrict validates every byte (final message check).
	scanStrict
	// scanFrameGuess is scanFrame, except that when the frame ends with
	// `"}}` (plus whitespace) the data string is assumed to end at that
	// quote, without searching its body for the closing quote. The caller
	// must confirm the guess (a successful base64 decode of the body
	// proves it: the alphabet has no '"' or '\\') before trusting e, and
	// rescan with scanFrame otherwise.
	scanFrameGuess
)

// scan parses the top-level object of b into e. It returns false on a
// syntax error (e still records what was seen before it).
func (e *envelope) scan(b []byte, mode scanMode) bool {
	return jsonscan.Object(b, func(key []byte, i int) (int, bool) {
		var dst *span
		k, exact := jsonscan.EnvelopeKey(key)
		if !exact && k != jsonscan.NoKey {
			// "Method", "jſonrpc": encoding/json would read it as the member;
			// refused like a duplicate, so no decoder reads it differently.
			e.dup = true
		}
		if exact {
			dst = e.member(k)
		}
		if dst != nil && dst.kind != 0 {
			e.dup = true
		}
		if dst == &e.params && mode != scanStrict && i < len(b) && b[i] == '{' {
			end, ok := e.scanParams(b, i, mode)
			e.params = span{kind: 'o', start: i, end: end}
			return end, ok
		}
		end, v, ok := scanSpan(b, i)
		if !ok {
			return end, false
		}
		if dst != nil {
			*dst = v
		}
		if dst == &e.method && v.is(b, Method) {
			e.methodIsSegment = true
		}
		return end, true
	})
}

// scanParams parses the params object at b[i] == '{', recording the four
// segment members. The data string takes a fast path: the closing quote is
// found with bytes.IndexByte and the body is left unvalidated (the base64
// decoder validates it; on failure Feed falls back to a full string scan).
func (e *envelope) scanParams(b []byte, i int, mode scanMode) (int, bool) {
	return jsonscan.ObjectAt(b, i, func(key []byte, i int) (int, bool) {
		var dst *span
		switch string(key) {
		case "groupId":
			dst = &e.groupID
		case "index":
			dst = &e.index
		case "total":
			dst = &e.total
		case "data":
			dst = &e.data
		}
		if dst != nil && dst.kind != 0 {
			e.dup = true
		}
		if dst == &e.data && i < len(b) && b[i] == '"' {
			end := 0
			if mode == scanFrameGuess && !e.guessed {
				end = guessDataEnd(b, i)
				e.guessed = end > 0
			}
			if end == 0 {
				var ok bool
				if end, ok = jsonscan.StringEnd(b, i); !ok {
					return i, false
				}
			}
			e.data = span{kind: '"', start: i + 1, end: end - 1, esc: true}
			return end, true
		}
		end, v, ok := scanSpan(b, i)
		if ok && dst != nil {
			*dst = v
		}
		return end, ok
	})
}

// guessDataEnd returns the index after the quote of a frame ending in
// `"}}` (whitespace allowed between and after), if that quote lies after the
// opening quote b[i]; otherwise 0. It is the end of the data string whenever
// data is the last member of params and params the last member of the
// frame, as Splitter writes them; the caller confirms it.
func guessDataEnd(b []byte, i int) int {
	j := len(b)
	for _, want := range []byte("}}\"") {
		j = skipWSBack(b, j)
		if j <= i+1 || b[j-1] != want {
			return 0
		}
		j--
	}
	return j + 1
}

// skipWSBack returns j moved back over whitespace before it.
func skipWSBack(b []byte, j int) int {
	for j > 0 {
		switch b[j-1] {
		case ' ', '\t', '\n', '\r':
			j--
		default:
			return j
		}
	}
	return j
}

// scanSpan validates one value at b[i] and describes it.
func scanSpan(b []byte, i int) (int, span, bool) {
	if i >= len(b) {
		return i, span{}, false
	}
	switch c := b[i]; {
	case c == '"':
		end, esc, ok := jsonscan.ScanString(b, i)
		return end, span{kind: '"', start: i + 1, end: end - 1, esc: esc}, ok
	case c == '-' || ('0' <= c && c <= '9'):
		end, ok := jsonscan.ScanNumber(b, i)
		return end, span{kind: 'n', start: i, end: end}, ok
	default:
		end, ok := jsonscan.SkipValue(b, i)
		return end, span{kind: 'o', start: i, end: end}, ok
	}
}
