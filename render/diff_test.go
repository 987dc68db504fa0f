package render

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	got := strings.Join(unifiedDiff(before, after, 1), "\n")
	want := "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -11,1 +11,2 @@\n k\n+l"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := unifiedDiff("same\n", "same\n", 3); len(d) != 0 {
		t.Errorf("identical inputs: %q", d)
	}
	if d := strings.Join(unifiedDiff("", "x\ny\n", 3), "\n"); d != "@@ -0,0 +1,2 @@\n+x\n+y" {
		t.Errorf("creation: %q", d)
	}
	if d := strings.Join(unifiedDiff("x\n", "", 3), "\n"); d != "@@ -1,1 +0,0 @@\n-x" {
		t.Errorf("deletion: %q", d)
	}
}

// applyHunks rebuilds the new text from the old one and a unified diff, to
// check diffs independently of their exact shape.
func applyHunks(t *testing.T, before string, hunks []string) string {
	t.Helper()
	a := splitDiffLines(before)
	var out []string
	pos := 0 // next line of a to copy
	for _, l := range hunks {
		if strings.HasPrefix(l, "@@") {
			var as, an, bs, bn int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &as, &an, &bs, &bn); err != nil {
				t.Fatalf("bad hunk header %q: %v", l, err)
			}
			start := as - 1
			if an == 0 {
				start = as
			}
			out = append(out, a[pos:start]...)
			pos = start
			continue
		}
		switch l[0] {
		case ' ':
			if a[pos] != l[1:] {
				t.Fatalf("context %q does not match %q", l[1:], a[pos])
			}
			out = append(out, a[pos])
			pos++
		case '-':
			if a[pos] != l[1:] {
				t.Fatalf("deleted %q does not match %q", l[1:], a[pos])
			}
			pos++
		case '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, a[pos:]...)
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// TestDiffRoundTrip applies random diffs back onto their input.
func TestDiffRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(strconv.Itoa(rng.IntN(6)))
			b.WriteByte('\n')
		}
		return b.String()
	}
	for i := range 500 {
		before, after := gen(), gen()
		for _, ctx := range []int{0, 1, 3} {
			if got := applyHunks(t, before, unifiedDiff(before, after, ctx)); got != after {
				t.Fatalf("case %d ctx %d: diff of %q -> %q rebuilds %q", i, ctx, before, after, got)
			}
		}
	}
}

// TestDiffFallback checks that a long diff with nothing in common (past
// any cost bound of the diff algorithm) still yields a correct diff.
func TestDiffFallback(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	if got := applyHunks(t, a.String(), unifiedDiff(a.String(), b.String(), 3)); got != b.String() {
		t.Fatal("fallback diff does not rebuild the new text")
	}
}

// BenchmarkUnifiedDiff measures a typical edit (a few changed lines in a
// long file) and the worst case (nothing in common).
func BenchmarkUnifiedDiff(b *testing.B) {
	inputs := func(n, changes int) (string, string) {
		var x, y strings.Builder
		for i := range n {
			fmt.Fprintf(&x, "line %d of the file with some text\n", i)
			if i%(n/changes) == 0 {
				fmt.Fprintf(&y, "changed %d\n", i)
			} else {
				fmt.Fprintf(&y, "line %d of the file with some text\n", i)
			}
		}
		return x.String(), y.String()
	}
	for _, c := range []struct{ n, changes int }{{200, 5}, {2000, 20}, {3000, 3000}} {
		x, y := inputs(c.n, c.changes)
		b.Run(fmt.Sprintf("%dlines_%dchanges", c.n, c.changes), func(b *testing.B) {
			for b.Loop() {
				unifiedDiff(x, y, diffContext)
			}
		})
	}
}

// TestDiffScatteredChangesStayMinimal pins why the diff is hand-written: 200
// changed lines scattered over 20,000 must give exactly 200 removals and 200
// additions, not a wholesale replacement (go-udiff v0.4.1 gives 14,951 of
// each because its search stops after 50 edit steps).
func TestDiffScatteredChangesStayMinimal(t *testing.T) {
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "line %d\n", i)
		if i%100 == 7 {
			fmt.Fprintf(&b, "changed %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	adds, dels := 0, 0
	for _, l := range unifiedDiff(a.String(), b.String(), diffContext) {
		switch {
		case strings.HasPrefix(l, "@@"):
		case strings.HasPrefix(l, "+"):
			adds++
		case strings.HasPrefix(l, "-"):
			dels++
		}
	}
	if adds != 200 || dels != 200 {
		t.Fatalf("scattered edit: +%d −%d, want +200 −200", adds, dels)
	}
	if got := applyHunks(t, a.String(), unifiedDiff(a.String(), b.String(), 3)); got != b.String() {
		t.Fatal("hunks do not apply back to the new text")
	}
}
