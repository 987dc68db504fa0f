package fifo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderAndMemory keeps ~1500 items queued while 10k pass through: the
// order holds, the queue holds only the blocks its live items need, and no
// slot outside them keeps an item alive.
func TestOrderAndMemory(t *testing.T) {
	var q Queue[*int]
	next, want := 0, 0
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
		if most := q.Len()/blockLen + 2; len(q.blocks) > most {
			t.Fatalf("%d blocks for %d live items", len(q.blocks), q.Len())
		}
	}
	for i := 0; i < q.head; i++ {
		if q.blocks[0][i] != nil {
			t.Fatalf("popped slot %d still references an item", i)
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
	if len(q.blocks) > 1 {
		t.Fatalf("an empty queue holds %d blocks", len(q.blocks))
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
	if q.Len() != 0 || q.blocks != nil || q.spare != nil {
		t.Fatal("Clear left items")
	}
}

// TestAgainstSlice runs random pushes, pops and removes, many across block
// edges, against a plain slice.
func TestAgainstSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var q Queue[int]
	var want []int
	next := 0
	for step := 0; step < 200000; step++ {
		switch op := r.IntN(10); {
		case op < 5 || len(want) == 0:
			q.Push(next)
			want = append(want, next)
			next++
		case op < 9:
			if got := q.Pop(); got != want[0] {
				t.Fatalf("step %d: Pop = %d, want %d", step, got, want[0])
			}
			want = want[1:]
		default:
			i := r.IntN(len(want))
			if i > 300 { // keep the shifting cheap
				i = len(want) - 1 - r.IntN(min(len(want), 300))
			}
			if got := q.Remove(i); got != want[i] {
				t.Fatalf("step %d: Remove(%d) = %d, want %d", step, i, got, want[i])
			}
			want = append(want[:i:i], want[i+1:]...)
		}
		if q.Len() != len(want) {
			t.Fatalf("step %d: Len = %d, want %d", step, q.Len(), len(want))
		}
		if need := (q.head + q.Len() + blockMask) >> blockShift; len(q.blocks) != need && !(q.Len() == 0 && len(q.blocks) <= 1) {
			t.Fatalf("step %d: %d blocks, %d needed", step, len(q.blocks), need)
		}
	}
	for i, w := range want {
		if got := *q.At(i); got != w {
			t.Fatalf("At(%d) = %d, want %d", i, got, w)
		}
	}
}

// BenchmarkBacklog pushes a backlog of n messages the size of the host's
// outMsg, then drains it, as a writer behind a streaming reply does.
func BenchmarkBacklog(b *testing.B) {
	type msg struct { // 104 bytes, four pointers besides data's
		data []byte
		_    [4]*uint64
		_    [6]uint64
	}
	data := []byte("x")
	for i := 0; i < b.N; i++ {
		var q Queue[msg]
		for j := 0; j < 20000; j++ {
			q.Push(msg{data: data})
		}
		for q.Len() > 0 {
			q.Pop()
		}
	}
}

// TestPoolTakesEmptiedBlocks: queues sharing a pool give it their used-up
// blocks, every slot zero (no item kept alive), and take blocks from it.
func TestPoolTakesEmptiedBlocks(t *testing.T) {
	var pool Pool[*int]
	a, b := Queue[*int]{Pool: &pool}, Queue[*int]{Pool: &pool}
	for i := 0; i < 10*blockLen; i++ {
		v := i
		a.Push(&v)
	}
	for a.Len() > 0 {
		a.Pop()
	}
	var got []*block[*int]
	for {
		x, ok := pool.p.Get().(*block[*int])
		if !ok {
			break
		}
		got = append(got, x)
	}
	if len(got) < 5 {
		t.Fatalf("the pool holds %d blocks after 10 were used up", len(got))
	}
	for _, x := range got {
		for i, p := range x {
			if p != nil {
				t.Fatalf("a pooled block still references an item at slot %d", i)
			}
		}
		pool.put(x)
	}
	b.Push(new(int))
	if len(b.blocks) != 1 {
		t.Fatal("no block after a push")
	}
	if reused := slices.Contains(got, b.blocks[0]); !reused {
		t.Fatal("a queue sharing the pool allocated a block while the pool held some")
	}
}
