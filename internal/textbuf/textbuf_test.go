package textbuf

import (
	"strings"
	"sync"
	"testing"
)

func TestAppendKeepsOlderVersions(t *testing.T) {
	var vs []Text
	cur, want := Text{}, ""
	for i := range 500 {
		d := string(rune('a' + i%26))
		cur = cur.Append(d)
		want += d
		vs = append(vs, cur)
	}
	for i, v := range vs {
		if got := v.String(); got != want[:i+1] || v.Len() != i+1 {
			t.Fatalf("version %d = %q (len %d), want %q", i, got, v.Len(), want[:i+1])
		}
	}
	if vs[10].buf != vs[20].buf {
		t.Fatal("successive appends did not share one buffer")
	}
}

func TestSiblingsCopyInsteadOfOverwriting(t *testing.T) {
	base := New("Hel")
	a := base.Append("lo")
	b := base.Append("p!")
	if a.String() != "Hello" || b.String() != "Help!" || base.String() != "Hel" {
		t.Fatalf("got %q %q %q", a, b, base)
	}
	if a.buf == b.buf {
		t.Fatal("the second sibling wrote into the first one's buffer")
	}
}

func TestConcurrentSiblings(t *testing.T) {
	base := New(strings.Repeat("x", 10))
	var wg sync.WaitGroup
	out := make([]Text, 16)
	for i := range out {
		wg.Go(func() { out[i] = base.Append(strings.Repeat(string(rune('a'+i)), 5)) })
	}
	wg.Wait()
	for i, v := range out {
		if want := base.String() + strings.Repeat(string(rune('a'+i)), 5); v.String() != want {
			t.Fatalf("sibling %d = %q, want %q", i, v, want)
		}
	}
}

func TestViews(t *testing.T) {
	a := New("abc").Append("d")
	if !a.Views(a.String()) {
		t.Fatal("a Text does not view its own string")
	}
	if a.Views(strings.Clone(a.String())) || a.Views("") || (Text{}).Views("") {
		t.Fatal("Views accepted a string it does not hold")
	}
	if New("").Len() != 0 || New("").String() != "" {
		t.Fatal("empty text not empty")
	}
}

func TestOfViewsWithoutCopyingAndNeverWritesIntoIt(t *testing.T) {
	src := strings.Repeat("x", 100)
	v := Of(src)
	if v.String() != src || !v.Views(src) || v.Len() != 100 {
		t.Fatal("Of must view its string")
	}
	a := v.Append("yz")
	b := v.Append("!")
	if src != strings.Repeat("x", 100) || v.String() != src {
		t.Fatal("an append wrote into the viewed string")
	}
	if a.String() != src+"yz" || b.String() != src+"!" || a.buf == v.buf {
		t.Fatalf("appends to a view: %q %q", a.String()[100:], b.String()[100:])
	}
	if a2 := a.Append("w"); a2.buf != a.buf {
		t.Fatal("after the first copy, appends must go in place again")
	}
	if e := Of(""); e.Len() != 0 || e.String() != "" {
		t.Fatal("empty view")
	}
	if n := testing.AllocsPerRun(100, func() { _ = Of(src) }); n > 1 {
		t.Fatalf("Of allocates %.0f times; want only its small header", n)
	}
}
