package reducer

import (
	"fmt"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// BenchmarkDeltas streams n 16-byte deltas into one text block. ns/delta
// staying flat as n grows from 1k to 100k shows O(1) amortised appends
// (O(len(delta)) per delta, not O(message)).
func BenchmarkDeltas(b *testing.B) {
	delta := BlockDelta{MessageID: "t1", Kind: KindText, Delta: "0123456789abcdef"}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s := streaming()
				for j := 0; j < n; j++ {
					s = Reduce(s, delta)
				}
				if got := mustBlockB(b, s, "p1").TextLen(); got != 3+16*n {
					b.Fatalf("text length %d", got)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/delta")
		})
	}
}

func mustBlockB(b *testing.B, s State, id string) *Block {
	blk := s.Current.Block(id)
	if blk == nil {
		b.Fatalf("no block %s", id)
	}
	return blk
}

// withFinished returns streaming() preceded by n finished messages.
func withFinished(n int) State {
	s := State{}
	for i := 0; i < n/2; i++ {
		id := fmt.Sprintf("h%d", i)
		s = ReduceAll(s, UserMessage{TurnID: id, Text: "question"}, MessageStart{ID: id, TurnID: id},
			BlockStart{MessageID: id, BlockID: "p", Kind: KindText, Text: "answer"},
			MessageEnd{MessageID: id, Status: StatusComplete})
	}
	return ReduceAll(s, UserMessage{TurnID: "t1", Text: "hi"}, MessageStart{ID: "t1", TurnID: "t1"},
		BlockStart{MessageID: "t1", BlockID: "p1", Kind: KindText, Text: "He"})
}

// BenchmarkReduceWithHistory measures one reduce (a delta) and one whole
// turn (user message, start, block, delta, end) with 0 and 10k finished
// messages present: equal costs show finished messages are shared, not
// copied.
func BenchmarkReduceWithHistory(b *testing.B) {
	for _, n := range []int{0, 10_000} {
		base := withFinished(n)
		b.Run(fmt.Sprintf("delta/finished=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			s := base
			d := BlockDelta{MessageID: "t1", Kind: KindText, Delta: "0123456789abcdef"}
			for i := 0; i < b.N; i++ {
				if i&4095 == 0 {
					s = base // bound the block at 64 KiB
				}
				s = Reduce(s, d)
			}
		})
		b.Run(fmt.Sprintf("turn/finished=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			s := Reduce(base, MessageEnd{MessageID: "t1", Status: StatusComplete})
			for i := 0; i < b.N; i++ {
				id := "b" + fmt.Sprint(i&1023)
				s = ReduceAll(s, UserMessage{TurnID: id, Text: "q"}, MessageStart{ID: id, TurnID: id},
					BlockStart{MessageID: id, BlockID: "p", Kind: KindText},
					BlockDelta{MessageID: id, Kind: KindText, Delta: "answer"},
					MessageEnd{MessageID: id, Status: StatusComplete})
			}
			if len(s.Messages) != n+2+2*b.N {
				b.Fatalf("messages %d", len(s.Messages))
			}
		})
	}
}

// BenchmarkApplyDelta measures the client's whole path for one chat/delta
// envelope (ahpstate.ReduceChat, Derive, Reduce) into an active turn with
// one text part, with 0 and 1000 finished turns: ns and bytes per delta
// stay flat as history grows and the part stays bounded at 64 KiB.
func BenchmarkApplyDelta(b *testing.B) {
	for _, turns := range []int{0, 1000} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			cs := ahpwire.ChatState{Resource: genChat, Turns: []ahpwire.Turn{}}
			for i := range turns {
				id := fmt.Sprintf("h%d", i)
				cs.Turns = append(cs.Turns, ahpwire.Turn{ID: id, Message: ahpwire.UserMessage("q"),
					ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("m", "answer")}, State: ahpwire.TurnComplete})
			}
			cs.ActiveTurn = &ahpwire.ActiveTurn{ID: "t1", Message: ahpwire.UserMessage("hi"),
				ResponseParts: ahpwire.PartsOf(ahpwire.MarkdownPart("p1", "He"))}
			base := projected(cs)
			env := ahpwire.ActionEnvelope{Channel: genChat, Action: &ahpwire.ChatDelta{TurnID: "t1", PartID: "p1", Content: "0123456789abcdef"}}
			c := base
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if i&4095 == 0 {
					c = base // bound the part at 64 KiB
				}
				c = applyOurs(c, env)
			}
		})
	}
}
