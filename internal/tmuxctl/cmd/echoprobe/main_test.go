package main

import (
	"testing"
	"time"
)

// TestSummary: nearest-rank p50 and p90 and the max, as the scripts
// printed them, for 1, 20 and 21 keys in any order.
func TestSummary(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	seq := func(n int) []int {
		v := make([]int, n)
		for i := range v {
			v[i] = n - i // descending: the sort matters
		}
		return v
	}
	for _, c := range []struct {
		in   []time.Duration
		want string
	}{
		{ms(7), "7/7/7 1"},
		{ms(seq(20)...), "10/18/20 20"},
		{ms(seq(21)...), "11/19/21 21"},
	} {
		if got := summary(c.in); got != c.want {
			t.Errorf("summary(%d keys) = %q, want %q", len(c.in), got, c.want)
		}
	}
}

// TestEchoed: the composer line shows the typed text as its text, not as a
// letter of the placeholder.
func TestEchoed(t *testing.T) {
	screen := []string{"  a reply with abc in it", "┃ abc", "status"}
	if !echoed(composer(screen, "┃"), "┃", "abc") {
		t.Error("typed text on the composer line not seen")
	}
	if echoed(composer([]string{"┃ Message… (enter send)"}, "┃"), "┃", "a") {
		t.Error("the placeholder's letters counted as typed")
	}
	if composer([]string{"no composer"}, "┃") != "" {
		t.Error("a screen without the composer has a composer line")
	}
}
