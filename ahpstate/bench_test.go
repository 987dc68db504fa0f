package ahpstate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// benchChat returns a chat with `turns` finished turns and an active turn
// with `parts` markdown parts.
func benchChat(turns, parts int) ahpwire.ChatState {
	s := idleChat()
	for i := range turns {
		id := fmt.Sprintf("t%d", i)
		s = apply(s, started(id), &ahpwire.ChatResponsePart{TurnID: id, Part: ahpwire.MarkdownPart("m", "answer")},
			&ahpwire.ChatTurnComplete{TurnID: id, Duration: ahpwire.Ptr[int64](1)})
	}
	s = apply(s, started("live"))
	for i := range parts {
		s = apply(s, &ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart(fmt.Sprintf("p%d", i), "")})
	}
	return s
}

// BenchmarkReduceChatDelta measures one chat/delta on the last part of an
// active turn (the streaming hot path) for growing part counts and part
// lengths. The state is not accumulated: every iteration reduces the same
// base state, so the numbers are per delta at that size.
func BenchmarkReduceChatDelta(b *testing.B) {
	for _, parts := range []int{1, 10, 100} {
		for _, size := range []int{0, 10_000} {
			b.Run(fmt.Sprintf("parts=%d/partBytes=%d", parts, size), func(b *testing.B) {
				s := benchChat(100, parts)
				last := fmt.Sprintf("p%d", parts-1)
				s = ReduceChat(s, &ahpwire.ChatDelta{TurnID: "live", PartID: last, Content: strings.Repeat("x", size)})
				a := &ahpwire.ChatDelta{TurnID: "live", PartID: last, Content: "token "}
				b.ReportAllocs()
				for b.Loop() {
					_ = ReduceChat(s, a)
				}
			})
		}
	}
}

// BenchmarkReduceTurnComplete measures finishing a turn in a chat with 100
// completed turns.
func BenchmarkReduceTurnComplete(b *testing.B) {
	s := benchChat(100, 10)
	a := &ahpwire.ChatTurnComplete{TurnID: "live", Duration: ahpwire.Ptr[int64](10)}
	b.ReportAllocs()
	for b.Loop() {
		_ = ReduceChat(s, a)
	}
}

// copyPerDelta is the reducer's chat/delta step before the shared text
// buffer (copy the parts slice and build the part's text with +=), kept
// only to measure both in one run.
func copyPerDelta(s ahpwire.ChatState, partID, content string) ahpwire.ChatState {
	for i, p := range s.ActiveTurn.ResponseParts.All() {
		if p.ID == partID {
			parts := s.ActiveTurn.ResponseParts.Slice()
			parts[i].Content += content
			return withActiveParts(s, ahpwire.PartsOf(parts...))
		}
	}
	return s
}

// BenchmarkStreamOnePart streams 10,000 chat/delta actions of 6 bytes into
// one markdown part (one op = the whole stream, accumulating state as the
// host does). impl=copy is the former copy-per-delta step, impl=shared the
// reducer's append-only buffer.
func BenchmarkStreamOnePart(b *testing.B) {
	const deltas = 10_000
	a := &ahpwire.ChatDelta{TurnID: "live", PartID: "p0", Content: "token "}
	impls := []struct {
		name string
		step func(ahpwire.ChatState) ahpwire.ChatState
	}{
		{"copy", func(s ahpwire.ChatState) ahpwire.ChatState { return copyPerDelta(s, a.PartID, a.Content) }},
		{"shared", func(s ahpwire.ChatState) ahpwire.ChatState { return ReduceChat(s, a) }},
	}
	for _, impl := range impls {
		b.Run("impl="+impl.name, func(b *testing.B) {
			base := benchChat(100, 1)
			b.ReportAllocs()
			for b.Loop() {
				s := base
				for range deltas {
					s = impl.step(s)
				}
				if n := len(s.ActiveTurn.ResponseParts.At(0).Content); n != deltas*len(a.Content) {
					b.Fatalf("part has %d bytes", n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
		})
	}
}
