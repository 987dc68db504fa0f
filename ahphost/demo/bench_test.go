package demo

import (
	"context"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// benchTurn runs text once per iteration with a discarding Emit and
// reports emitted actions per second.
func benchTurn(b *testing.B, dir, text string, d decider) {
	ag := New(Options{Dir: dir, Now: fixedNow})
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		client := make(chan ahpwire.Action, 16)
		emit := func(a ahpwire.Action) {
			n++
			if d != nil {
				for _, c := range d(a) {
					client <- c
				}
			}
		}
		if err := ag.Run(context.Background(), Turn{TurnID: "t1", Text: text, Emit: emit, Client: client}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "actions/s")
}

func BenchmarkPlainTurn(b *testing.B) { benchTurn(b, b.TempDir(), "Refactor the config loader", nil) }

func BenchmarkToolsTurn(b *testing.B) { benchTurn(b, b.TempDir(), "/demo tools", approveAll) }

func BenchmarkBig3MiB(b *testing.B) {
	b.SetBytes(3 << 20)
	benchTurn(b, "", "/demo big 3m", nil)
}

func BenchmarkBigReply32MiB(b *testing.B) {
	b.SetBytes(MaxBig)
	b.ReportAllocs()
	for b.Loop() {
		if len(BigReply(MaxBig)) != MaxBig {
			b.Fatal("wrong size")
		}
	}
}
