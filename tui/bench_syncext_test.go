package tui

import (
	"testing"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// BenchmarkSyncExtRefs measures the root model's syncExt, which runs after
// every Update, in a chat whose finished 32 MiB reply the embedded host
// keeps as 512 contentRef pages (a reopened `/demo big 32000000`) with the
// end of the reply on screen: the terminals and content references of
// the visible messages are walked and the loads near the window kept.
func BenchmarkSyncExtRefs(b *testing.B) {
	const size = 32 << 20
	r := startLiveRig(b, ahphost.Options{Dir: b.TempDir(), NoToken: true})
	turn := ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "big please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", burstText(size))}, State: ahpwire.TurnComplete}
	if _, err := r.host.SeedSession("ahp-session:/big", []ahpwire.Turn{turn}); err != nil {
		b.Fatal(err)
	}
	r.m = send(b, r.m, openSessionMsg{Session: "ahp-session:/big"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.ready })
	if pages := countSearchRefs(r.m.chat.allMessages()); pages < 500 {
		b.Fatalf("the reply came as %d pages", pages)
	}
	m := r.m
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.syncExt()
	}
}
