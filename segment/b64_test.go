package segment

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// FuzzB64Decode checks that b64Decode behaves exactly like the standard
// decoder on arbitrary input, and round-trips arbitrary bytes.
func FuzzB64Decode(f *testing.F) {
	f.Add([]byte("QUJD"), []byte("abc"))
	f.Add([]byte("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo="), []byte("hello, world, this is long"))
	f.Add([]byte("QUJDREVGR0hJ\nSktMTU5PUFFSU1RVVldYWVo="), []byte{})
	f.Add([]byte("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWV=="), []byte{0, 1, 2})
	f.Fuzz(func(t *testing.T, src, raw []byte) {
		want := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
		got := make([]byte, len(want))
		wn, werr := base64.StdEncoding.Decode(want, src)
		gn, gerr := b64Decode(got, src)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("error mismatch: std %v, fast %v", werr, gerr)
		}
		if werr == nil && (wn != gn || !bytes.Equal(want[:wn], got[:gn])) {
			t.Fatalf("output mismatch")
		}
		enc := base64.StdEncoding.EncodeToString(raw)
		dst := make([]byte, len(raw)+3)
		n, err := b64Decode(dst, []byte(enc))
		if err != nil || !bytes.Equal(dst[:n], raw) {
			t.Fatalf("round trip failed: %v", err)
		}
	})
}

// FuzzB64Encode checks b64Encode against the standard encoder.
func FuzzB64Encode(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("a"))
	f.Add([]byte("hello, world, a longer input of some bytes"))
	f.Fuzz(func(t *testing.T, src []byte) {
		want := base64.StdEncoding.EncodeToString(src)
		got := b64AppendEncode([]byte("x"), src)
		if string(got) != "x"+want {
			t.Fatalf("encode mismatch for %q: got %q want %q", src, got, want)
		}
	})
}
