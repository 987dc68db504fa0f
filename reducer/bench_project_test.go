package reducer

import (
	"fmt"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// BenchmarkProject measures projecting a chat snapshot of 10,000 finished
// turns into lifecycle state (what the client does on subscribe and on a
// snapshot after a reconnect): bytes and allocations per projection.
func BenchmarkProject(b *testing.B) {
	const n = 10_000
	cs := ahpwire.ChatState{Resource: "ahp-chat:/bench"}
	for i := range n {
		id := fmt.Sprintf("t%d", i)
		cs.Turns = append(cs.Turns, ahpwire.Turn{ID: id, Message: ahpwire.UserMessage("question " + id),
			ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart(id+".m", "an answer of a few words")},
			State:         ahpwire.TurnComplete})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s := Project(cs); len(s.Messages) != 2*n {
			b.Fatalf("%d messages, want %d", len(s.Messages), 2*n)
		}
	}
}
