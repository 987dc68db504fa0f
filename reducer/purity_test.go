package reducer

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestReducePureAndShares replays random streams and checks at every step
// that the previous state is unchanged and finished messages are shared.
func TestReducePureAndShares(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		envs := newStreamGen(seed).generate(120)
		s := Project(ahpwireChat())
		for i, e := range envs {
			for _, a := range Translate(e, s) {
				before := canonState(s)
				next := Reduce(s, a)
				if !reflect.DeepEqual(canonState(s), before) {
					t.Fatalf("seed %d step %d: %T modified its input", seed, i, a)
				}
				shift := 0
				if _, ok := a.(HistoryLoaded); ok {
					shift = len(next.Messages) - len(s.Messages) // prepended
				}
				for j := 0; j < min(len(s.Messages), len(next.Messages)-shift); j++ {
					if next.Messages[j+shift] != s.Messages[j] {
						t.Fatalf("seed %d step %d: %T copied finished message %d", seed, i, a, j)
					}
				}
				if len(next.Messages) != cap(next.Messages) {
					t.Fatal("Messages must be capped so callers' appends copy")
				}
				s = next
			}
		}
	}
}

// TestBranchesDoNotInterfere reduces two different continuations of one
// state; the shared append-only buffers must keep both intact.
func TestBranchesDoNotInterfere(t *testing.T) {
	base := streaming()
	a := ReduceAll(base, BlockDelta{MessageID: "t1", BlockID: "p1", Kind: KindText, Delta: "lo"},
		MessageEnd{MessageID: "t1", Status: StatusComplete}, UserMessage{TurnID: "A"})
	b := ReduceAll(base, BlockDelta{MessageID: "t1", BlockID: "p1", Kind: KindText, Delta: "p!"},
		MessageEnd{MessageID: "t1", Status: StatusComplete}, UserMessage{TurnID: "B"})
	if a.Messages[1].Text() != "Hello" || b.Messages[1].Text() != "Help!" {
		t.Fatalf("texts %q %q", a.Messages[1].Text(), b.Messages[1].Text())
	}
	if a.Messages[2].ID != "A/user" || b.Messages[2].ID != "B/user" {
		t.Fatal("message log slot shared between branches")
	}
	if mustBlock(t, base.Current, "p1").Text() != "Hel" {
		t.Fatal("base changed")
	}
}

// TestConcurrentBranches runs many branches of one state in parallel (run
// with -race): the compare-and-swap claims must make this safe.
func TestConcurrentBranches(t *testing.T) {
	base := streaming()
	var wg sync.WaitGroup
	results := make([]State, 16)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := base
			for i := 0; i < 200; i++ {
				s = Reduce(s, BlockDelta{MessageID: "t1", BlockID: "p1", Kind: KindText, Delta: fmt.Sprint(g)})
				_ = mustBlock(t, base.Current, "p1").Text()
			}
			results[g] = ReduceAll(s, MessageEnd{MessageID: "t1", Status: StatusComplete}, UserMessage{TurnID: fmt.Sprint(g)})
		}()
	}
	wg.Wait()
	for g, s := range results {
		want := "Hel"
		for i := 0; i < 200; i++ {
			want += fmt.Sprint(g)
		}
		if got := s.Messages[1].Text(); got != want {
			t.Fatalf("branch %d: text corrupted (%d bytes, want %d)", g, len(got), len(want))
		}
		if s.Messages[2].TurnID != fmt.Sprint(g) {
			t.Fatalf("branch %d: message slot corrupted", g)
		}
	}
}

// TestDeltaCostDoesNotGrow: a delta into a 1 MiB block allocates no more
// than one into a 3-byte block (amortised: the buffer doubles), and no more
// with 10k finished messages present.
func TestDeltaCostDoesNotGrow(t *testing.T) {
	d := BlockDelta{MessageID: "t1", BlockID: "p1", Kind: KindText, Delta: "0123456789abcdef"}
	measure := func(s State) float64 {
		return testing.AllocsPerRun(2000, func() { s = Reduce(s, d) })
	}
	small := measure(streaming())
	big := streaming()
	for i := 0; i < 65536; i++ {
		big = Reduce(big, d)
	}
	large := measure(big)
	history := measure(withFinished(10_000))
	if small > 4 || large > small || history > small {
		t.Fatalf("allocs per delta: small %.1f, 1MiB block %.1f, 10k messages %.1f", small, large, history)
	}
}
