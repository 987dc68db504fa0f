package demo

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// StreamReply is exactly n bytes of valid UTF-8 markdown with headings,
// fences, lists and tables, ending in its footer.
func TestStreamReplyExactSize(t *testing.T) {
	for _, n := range []int{minStream, 100, 1000, 4096, 200 << 10} {
		s := StreamReply(n)
		if len(s) != n || !utf8.ValidString(s) {
			t.Fatalf("n=%d: got %d bytes (valid UTF-8 %v)", n, len(s), utf8.ValidString(s))
		}
		if !strings.HasSuffix(s, streamFooter(n)) {
			t.Fatalf("n=%d: no footer: %q", n, s[max(0, len(s)-40):])
		}
	}
	s := StreamReply(200 << 10)
	for _, want := range []string{"## Section", "```go", "- first point", "| step |", "> A quoted", "1. number one", "日本語"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the reply lacks %q", want)
		}
	}
	if strings.Count(s, "```")%2 != 0 {
		t.Fatal("a code fence is left open")
	}
}

// StreamDeltas cuts 20–60-byte deltas (or a fixed size) at character
// boundaries, and they add up to the text.
func TestStreamDeltas(t *testing.T) {
	text := StreamReply(64 << 10)
	for _, size := range []int{0, 20, 60, 4096} {
		ds := StreamDeltas(text, size, 7)
		if strings.Join(ds, "") != text {
			t.Fatalf("size %d: deltas do not add up to the text", size)
		}
		for i, d := range ds[:len(ds)-1] {
			lo, hi := size-3, size
			if size == 0 {
				lo, hi = StreamMinDelta-3, StreamMaxDelta
			}
			if len(d) < lo || len(d) > hi || !utf8.ValidString(d) {
				t.Fatalf("size %d: delta %d is %d bytes (%q)", size, i, len(d), d)
			}
		}
	}
}

// "/demo stream N [D]" parses its size and optional delta size.
func TestParseStream(t *testing.T) {
	c := parseCommand("/demo stream 3m")
	if c.script != scriptStream || c.n != 3<<20 || c.delta != 0 || c.bad != "" {
		t.Fatalf("got %+v", c)
	}
	c = parseCommand("/demo stream 200k 4096")
	if c.n != 200<<10 || c.delta != 4096 || c.bad != "" {
		t.Fatalf("got %+v", c)
	}
	for _, bad := range []string{"/demo stream", "/demo stream 10", "/demo stream x", "/demo stream 1m 0", "/demo stream 1m 33m"} {
		if c := parseCommand(bad); c.script != scriptStream || c.bad == "" {
			t.Fatalf("%q: got %+v", bad, c)
		}
	}
}
