package render

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// wrapCodeQuadratic is the wrapping wrapCode did before issue 24 (it
// measured the rest of the line for every row): the reference the linear
// version must agree with.
func wrapCodeQuadratic(l string, limit int) []string {
	limit = max(limit, 1)
	if ansi.StringWidth(l) <= limit {
		return []string{l}
	}
	var rows []string
	first := true
	for ansi.StringWidth(l) > limit {
		head := ansi.Truncate(l, limit, "")
		if head == "" {
			_, n := utf8.DecodeRuneInString(l)
			head = l[:n]
		}
		cut := len(head)
		indent := 0
		if first {
			indent = len(l) - len(strings.TrimLeft(l, " "))
		}
		if sp := strings.LastIndexByte(head, ' '); sp > indent && ansi.StringWidth(head[:sp]) >= limit/3 {
			cut = sp
		}
		rows = append(rows, strings.TrimRight(l[:cut], " "))
		l = strings.TrimLeft(l[cut:], " ")
		first = false
	}
	if l != "" {
		rows = append(rows, l)
	}
	return rows
}

// TestWrapCodeMatchesReference: the one-pass wrap breaks lines exactly as
// the old one did (random words, indentation, wide characters).
func TestWrapCodeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{" ", "  ", "a", "bb", "word", "longerword", "界", "é", "x_y", "    "}
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		l, limit := b.String(), 1+rng.IntN(30)
		if got, want := wrapCode(l, limit), wrapCodeQuadratic(l, limit); !slices.Equal(got, want) {
			t.Fatalf("case %d: wrapCode(%q, %d) = %q, want %q", i, l, limit, got, want)
		}
	}
}

// TestWrapCodeLongLineIsCapped: a huge line is laid out up to
// MaxLineBytes, every row within the width, and a marker row says what was
// left out (issue 24 item 8).
func TestWrapCodeLongLineIsCapped(t *testing.T) {
	l := strings.Repeat("abcdefgh ", 200<<10/9)
	rows := wrapCode(l, 80)
	if len(rows) > MaxLineBytes/40+2 {
		t.Fatalf("%d rows for a %d-byte line", len(rows), len(l))
	}
	for _, r := range rows {
		if ansi.StringWidth(r) > 80 {
			t.Fatalf("row of %d columns", ansi.StringWidth(r))
		}
	}
	if last := rows[len(rows)-1]; !strings.Contains(last, "more bytes on this line not shown") {
		t.Fatalf("no marker: %q", last)
	}
}

// BenchmarkWrapCodeLongLine lays out a 1 MiB line (3 min 44 s before issue
// 24 item 8).
func BenchmarkWrapCodeLongLine(b *testing.B) {
	l := strings.Repeat("x", 1<<20)
	for b.Loop() {
		_ = wrapCode(l, 100)
	}
}

// TestToolOutputLongLineIsCapped: a 1 MiB line of tool output is laid out
// up to MaxLineBytes with a note of the rest (issue 24 item 8).
func TestToolOutputLongLineIsCapped(t *testing.T) {
	line := strings.Repeat("word ", 1<<20/5)
	if got := capLineBytes("a\n" + line + "\nb"); !strings.HasPrefix(got, "a\n") || !strings.HasSuffix(got, " more bytes on this line not shown\nb") || len(got) > MaxLineBytes+100 {
		t.Fatalf("capped to %d bytes: ...%q", len(got), got[max(0, len(got)-60):])
	}
}
