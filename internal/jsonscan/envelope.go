package jsonscan

import (
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

// Errors of CheckEnvelope.
var (
	// ErrDuplicateKey: an envelope member appears twice.
	ErrDuplicateKey = errors.New("jsonscan: duplicate JSON-RPC envelope member")
	// ErrFoldedKey: a member name matches an envelope member only by case
	// folding.
	ErrFoldedKey = errors.New("jsonscan: JSON-RPC envelope member name in the wrong case")
	// ErrSyntax: the input is not one valid JSON object (or not UTF-8).
	ErrSyntax = errors.New("jsonscan: not a valid JSON object")
)

// CheckEnvelope validates b as one JSON object (grammar and UTF-8) whose
// envelope members each appear at most once and by their exact name. Other
// members are not restricted. It is the check every decoder of a whole
// JSON-RPC message runs besides (or instead of) encoding/json, which takes
// the last of duplicate members and matches names case-insensitively.
func CheckEnvelope(b []byte) error {
	var seen [numKeys]bool
	var err error // the first key error; syntax errors take precedence
	ok := Object(b, func(name []byte, value int) (int, bool) {
		end, ok := SkipValue(b, value)
		if !ok {
			return end, false
		}
		k, exact := EnvelopeKey(name)
		switch {
		case k == NoKey || err != nil:
		case !exact:
			err = ErrFoldedKey
		case seen[k]:
			err = ErrDuplicateKey
		}
		seen[k] = true
		return end, true
	})
	if !ok {
		return ErrSyntax
	}
	return err
}

// Object walks the JSON object that is the whole of b (white space allowed
// around it). For each member it calls member with the member's unescaped
// name (valid only during the call) and the index of its value; member
// returns the index just after the value and false to stop. Object returns
// true if the whole input was walked and is a syntactically valid object as
// far as Object checks it: the punctuation and names (validated strings);
// the values are whatever member accepted.
func Object(b []byte, member func(name []byte, value int) (int, bool)) bool {
	i := SkipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return SkipWS(b, i+1) == len(b)
	}
	var buf [32]byte
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		ke, esc, ok := ScanString(b, i)
		if !ok {
			return false
		}
		name := b[i+1 : ke-1]
		if esc {
			name = Unescape(buf[:0], name)
		}
		i = SkipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		if i, ok = member(name, SkipWS(b, i+1)); !ok {
			return false
		}
		i = SkipWS(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return SkipWS(b, i+1) == len(b)
		}
		if b[i] != ',' {
			return false
		}
		i = SkipWS(b, i+1)
	}
}

// Valid reports whether b is exactly one valid JSON value (white space
// allowed around it) with valid UTF-8 in its strings: encoding/json.Valid
// && utf8.Valid, faster.
func Valid(b []byte) bool {
	i, ok := SkipValue(b, 0)
	return ok && SkipWS(b, i) == len(b)
}
