package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// BenchmarkFrameQueuedHugeMessage measures one frame (View) of a chat with
// a queued message of 1 MiB of non-ASCII text: the strip above the
// composer shows its first line, cut to the width.
func BenchmarkFrameQueuedHugeMessage(b *testing.B) {
	m, _ := newTestModel(b, 100, 30)
	m = openChat(b, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working on it"))))
	m.chat.State.Queued = []reducer.PendingMessage{{ID: "q1", Text: strings.Repeat("héllo wörld ", 1<<20/13)}}
	if !strings.Contains(viewText(m), "⧗ queued: héllo wörld") {
		b.Fatalf("the queued message is not shown:\n%s", viewText(m))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}
