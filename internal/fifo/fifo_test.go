package fifo

import "testing"

func TestOrderAcrossCompaction(t *testing.T) {
	var q Queue[*int]
	next, want := 0, 0
	// Keep ~1500 items queued while 10k pass through, forcing compactions.
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
	if cap(q.items) > 4096 {
		t.Fatalf("slice grew to %d for at most 1501 live items", cap(q.items))
	}
	for i, p := range q.items[:cap(q.items)] {
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
	if q.Len() != 0 || q.items != nil {
		t.Fatal("Clear left items")
	}
}
