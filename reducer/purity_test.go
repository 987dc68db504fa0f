package reducer

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
)

// TestReducePureAndShares replays random streams and checks at every step
// that the previous state is unchanged and finished messages are shared.
func TestReducePureAndShares(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		envs := newStreamGen(seed).generate(120)
		cs := ahpwireChat()
		s := Project(cs)
		for i, e := range envs {
			var acts []Action
			cs, _, acts = Apply(cs, s, e)
			for _, a := range acts {
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
	a := ReduceAll(base, BlockDelta{MessageID: "t1", Kind: KindText, Delta: "lo"},
		MessageEnd{MessageID: "t1", Status: StatusComplete}, UserMessage{TurnID: "A"})
	b := ReduceAll(base, BlockDelta{MessageID: "t1", Kind: KindText, Delta: "p!"},
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
				s = Reduce(s, BlockDelta{MessageID: "t1", Kind: KindText, Delta: fmt.Sprint(g)})
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

// TestDeltaCostDoesNotGrow: a delta into a 1 MiB block costs no more
// allocations and no more allocated bytes than one into a small block, and
// no more with 10k finished messages present. Bytes are averaged over many
// deltas so that the buffer's amortised doubling is included: a small block
// grows from 2 bytes to 64 KiB, the 1 MiB block grows by 1 MiB (so it
// doubles at most once or twice). An append that copied the whole text on
// every delta would cost ~1.5 MiB per delta here and fail.
func TestDeltaCostDoesNotGrow(t *testing.T) {
	d := BlockDelta{MessageID: "t1", Kind: KindText, Delta: "0123456789abcdef"}
	measure := func(s State) float64 {
		return testing.AllocsPerRun(2000, func() { s = Reduce(s, d) })
	}
	bytesPerDelta := func(s State, n int) float64 {
		return bytesPerRun(n, func() { s = Reduce(s, d) })
	}
	const mib = 1 << 20
	small := measure(streaming())
	smallBytes := bytesPerDelta(streaming(), 64<<10/len(d.Delta))
	big := streaming()
	for len(big.Current.Blocks.At(0).Text()) < mib {
		big = Reduce(big, d)
	}
	if n := len(big.Current.Blocks.At(0).Text()); n < mib || n > mib+64 {
		t.Fatalf("big block holds %d bytes, want ~1 MiB", n)
	}
	large := measure(big)
	largeBytes := bytesPerDelta(big, mib/len(d.Delta))
	history := measure(withFinished(10_000))
	historyBytes := bytesPerDelta(withFinished(10_000), 64<<10/len(d.Delta))
	t.Logf("per delta: small %.1f allocs %.0f B, 1MiB block %.1f allocs %.0f B, 10k messages %.1f allocs %.0f B",
		small, smallBytes, large, largeBytes, history, historyBytes)
	if small > 4 || large > small || history > small {
		t.Errorf("allocs per delta: small %.1f, 1MiB block %.1f, 10k messages %.1f", small, large, history)
	}
	// Bytes per delta must not grow with the block size (or the history):
	// allow a factor 2 for where the doubling falls plus a small constant.
	if limit := 2*smallBytes + 256; largeBytes > limit || historyBytes > limit {
		t.Errorf("bytes per delta: small block %.0f, 1MiB block %.0f, 10k messages %.0f (limit %.0f)",
			smallBytes, largeBytes, historyBytes, limit)
	}
}

// bytesPerRun calls step n times and returns the average number of bytes
// allocated per call (runtime.MemStats.TotalAlloc is cumulative, so garbage
// collection during the loop does not hide anything).
func bytesPerRun(n int, step func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < n; i++ {
		step()
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(step)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}
