package fifo

import "testing"

func TestOrderAcrossWrap(t *testing.T) {
	var q Queue[*int]
	next, want := 0, 0
	// Keep ~1500 items queued while 10k pass through, wrapping the ring.
	for round := 0; round < 10000; round++ {
		v := next
		q.Push(&v)
		next++
		if q.Len() > 1500 {
			if got := *q.Pop(); got != want {
				t.Fatalf("popped %d, want %d", got, want)
			}
			want++
		}
	}
	for q.Len() > 0 {
		if got := *q.Pop(); got != want {
			t.Fatalf("popped %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("popped %d items, pushed %d", want, next)
	}
	if cap(q.ring) > 4096 {
		t.Fatalf("ring grew to %d for at most 1501 live items", cap(q.ring))
	}
	for i, p := range q.ring[:cap(q.ring)] {
		if p != nil {
			t.Fatalf("slot %d still references an item", i)
		}
	}
}

func TestAtRemoveClear(t *testing.T) {
	var q Queue[string]
	for _, s := range []string{"a", "b", "c", "d"} {
		q.Push(s)
	}
	q.Pop()
	if *q.At(0) != "b" || *q.At(2) != "d" {
		t.Fatalf("At: %q %q", *q.At(0), *q.At(2))
	}
	if got := q.Remove(1); got != "c" || q.Len() != 2 || *q.At(1) != "d" {
		t.Fatalf("Remove(1) = %q, len %d", got, q.Len())
	}
	if got := q.Remove(0); got != "b" || q.Len() != 1 {
		t.Fatalf("Remove(0) = %q, len %d", got, q.Len())
	}
	q.Clear()
	if q.Len() != 0 || q.ring != nil {
		t.Fatal("Clear left items")
	}
}

// TestRemoveAcrossWrap removes items whose later neighbours sit on both
// sides of the ring's end, and pushes past a full ring that has wrapped.
func TestRemoveAcrossWrap(t *testing.T) {
	var q Queue[int]
	var want []int
	for i := 0; i < 12; i++ {
		q.Push(i)
		want = append(want, i)
	}
	for i := 0; i < 10; i++ { // head near the ring's end
		q.Pop()
		want = want[1:]
	}
	for i := 12; i < 24; i++ { // wraps past the ring's end
		q.Push(i)
		want = append(want, i)
	}
	for _, i := range []int{3, 0, 7, 9} {
		if got := q.Remove(i); got != want[i] {
			t.Fatalf("Remove(%d) = %d, want %d", i, got, want[i])
		}
		want = append(want[:i:i], want[i+1:]...)
	}
	for i := 24; i < 44; i++ { // fills the wrapped ring and grows it
		q.Push(i)
		want = append(want, i)
	}
	for i, w := range want {
		if got := *q.At(i); got != w {
			t.Fatalf("At(%d) = %d, want %d", i, got, w)
		}
	}
	for _, w := range want {
		if got := q.Pop(); got != w {
			t.Fatalf("Pop = %d, want %d", got, w)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("Len = %d after popping all", q.Len())
	}
}
