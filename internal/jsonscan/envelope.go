package jsonscan

import (
	"bytes"
	"errors"
	"unicode"
	"unicode/utf8"
)

// Key identifies a JSON-RPC 2.0 envelope member.
type Key int

// The envelope members; NoKey is any other name.
const (
	NoKey Key = iota
	KeyJSONRPC
	KeyID
	KeyMethod
	KeyParams
	KeyResult
	KeyError
	numKeys
)

// keyNames are the members' exact names, indexed by Key.
var keyNames = [numKeys]string{"", "jsonrpc", "id", "method", "params", "result", "error"}

// Name returns the member's name ("" for NoKey).
func (k Key) Name() string { return keyNames[k] }

// EnvelopeKey classifies an (unescaped) object member name: the envelope
// member it names and whether it names it exactly. exact is false when the
// name matches only the way encoding/json matches names to struct fields
// (case-insensitively, with Unicode folding: "Method", "ID", "jſonrpc");
// callers must refuse such a member, as they refuse a duplicate.
func EnvelopeKey(name []byte) (k Key, exact bool) {
	for k := KeyJSONRPC; k < numKeys; k++ {
		if string(name) == keyNames[k] {
			return k, true
		}
	}
	for k := KeyJSONRPC; k < numKeys; k++ {
		if FoldEqual(name, keyNames[k]) {
			return k, false
		}
	}
	return NoKey, false
}

// FoldEqual reports whether encoding/json would match the object member name
// to a struct field named field (an ASCII name): rune for rune after mapping
// every rune to the smallest rune of its unicode.SimpleFold orbit ('ſ' and
// 's' to 'S', the Kelvin sign and 'k' to 'K'), which is how encoding/json
// folds names (bytes.EqualFold).
func FoldEqual(name []byte, field string) bool {
	j := 0
	for i := 0; i < len(name); {
		c := name[i]
		var f rune
		if c < utf8.RuneSelf {
			f = rune(c)
			i++
		} else {
			r, n := utf8.DecodeRune(name[i:])
			f = foldRune(r)
			i += n
		}
		if 'a' <= f && f <= 'z' {
			f -= 'a' - 'A'
		}
		if j >= len(field) {
			return false
		}
		g := rune(field[j])
		if 'a' <= g && g <= 'z' {
			g -= 'a' - 'A'
		}
		if f != g {
			return false
		}
		j++
	}
	return j == len(field)
}

// foldRune returns the smallest rune of r's case-folding orbit.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// Errors of CheckEnvelopeKeys.
var (
	// ErrDuplicateKey: an envelope member appears twice.
	ErrDuplicateKey = errors.New("jsonscan: duplicate JSON-RPC envelope member")
	// ErrFoldedKey: a member name matches an envelope member only by case
	// folding.
	ErrFoldedKey = errors.New("jsonscan: JSON-RPC envelope member name in the wrong case")
	// ErrNotObject: the input is not a JSON object.
	ErrNotObject = errors.New("jsonscan: not a JSON object")
)

// CheckEnvelopeKeys reports whether the top-level object b names each
// envelope member at most once and by its exact name (other members are not
// restricted). It is the check every decoder of a whole JSON-RPC message
// runs besides encoding/json, which takes the last of duplicate members and
// matches names case-insensitively. b must be valid JSON (check it first,
// e.g. run it after encoding/json accepted it): values are skipped
// structurally, and invalid UTF-8 is tolerated as encoding/json tolerates
// it (it never spells an envelope name).
func CheckEnvelopeKeys(b []byte) error {
	var seen [numKeys]bool
	var buf [32]byte
	i := SkipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrNotObject
	}
	for i = SkipWS(b, i+1); i < len(b) && b[i] == '"'; {
		end, ok := StringEnd(b, i)
		if !ok {
			return ErrNotObject
		}
		name := b[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			if !escapesValid(name) {
				return ErrNotObject
			}
			name = Unescape(buf[:0], name)
		}
		k, exact := EnvelopeKey(name)
		switch {
		case k == NoKey:
		case !exact:
			return ErrFoldedKey
		case seen[k]:
			return ErrDuplicateKey
		}
		seen[k] = true
		i = SkipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return ErrNotObject
		}
		if i, ok = SkipStructural(b, SkipWS(b, i+1)); !ok {
			return ErrNotObject
		}
		if i = SkipWS(b, i); i < len(b) && b[i] == ',' {
			i = SkipWS(b, i+1)
		}
	}
	return nil
}

// escapesValid reports whether every backslash in a string body starts a
// valid escape (what Unescape requires; UTF-8 is not checked).
func escapesValid(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		switch {
		case i+1 < len(s) && simpleEscape[s[i+1]]:
			i++
		case i+6 <= len(s) && s[i+1] == 'u' && isHex4(s[i+2:i+6]):
			i += 5
		default:
			return false
		}
	}
	return true
}

// Object walks the JSON object that is the whole of b (white space allowed
// around it). For each member it calls member with the member's unescaped
// name (valid only during the call) and the index of its value; member
// returns the index just after the value and false to stop. Object returns
// true if the whole input was walked and is a syntactically valid object as
// far as Object checks it: the punctuation and names (validated strings);
// the values are whatever member accepted.
func Object(b []byte, member func(name []byte, value int) (int, bool)) bool {
	end, ok := ObjectAt(b, SkipWS(b, 0), member)
	return ok && SkipWS(b, end) == len(b)
}

// ObjectAt is Object for the object that starts at b[i]; it returns the
// index just after its closing brace.
func ObjectAt(b []byte, i int, member func(name []byte, value int) (int, bool)) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		ke, esc, ok := ScanString(b, i)
		if !ok {
			return i, false
		}
		name := b[i+1 : ke-1]
		if esc { // rare: a buffer would escape to the heap for every object
			name = Unescape(nil, name)
		}
		i = SkipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		if i, ok = member(name, SkipWS(b, i+1)); !ok {
			return i, false
		}
		i = SkipWS(b, i)
		if i >= len(b) {
			return i, false
		}
		if b[i] == '}' {
			return i + 1, true
		}
		if b[i] != ',' {
			return i, false
		}
		i = SkipWS(b, i+1)
	}
}

// String reads the JSON string at b[i] and returns its decoded value
// (exactly what encoding/json decodes; invalid UTF-8 is refused rather than
// replaced) and the index after it.
func String(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	end, esc, ok := ScanString(b, i)
	if !ok {
		return "", i, false
	}
	body := b[i+1 : end-1]
	if esc {
		return string(Unescape(make([]byte, 0, len(body)), body)), end, true
	}
	return string(body), end, true
}

// Valid reports whether b is exactly one valid JSON value (white space
// allowed around it) with valid UTF-8 in its strings: encoding/json.Valid
// && utf8.Valid, faster.
func Valid(b []byte) bool {
	i, ok := SkipValue(b, 0)
	return ok && SkipWS(b, i) == len(b)
}

// StringIs reads the JSON string at b[i] and reports whether it decodes to
// want (escaped spellings included), without allocating, and the index
// after it. ok is false when b[i] does not start a valid string.
func StringIs(b []byte, i int, want string) (end int, is, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false, false
	}
	end, esc, ok := ScanString(b, i)
	if !ok {
		return i, false, false
	}
	return end, BodyIs(b[i+1:end-1], esc, want), true
}

// BodyIs reports whether a validated string body (the bytes between the
// quotes; esc: it contains escapes) decodes to want.
func BodyIs(body []byte, esc bool, want string) bool {
	if !esc {
		return string(body) == want
	}
	if len(body) > 6*len(want) { // no byte of want is spelled longer
		return false
	}
	var buf [64]byte
	return string(Unescape(buf[:0], body)) == want
}
