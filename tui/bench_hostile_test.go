package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// hostile9K is ~9 KB of hostile text (escapes, wide runes, long runs).
func hostile9K() string {
	var b strings.Builder
	for b.Len() < 9000 {
		b.WriteString(allHostile)
		b.WriteString(" ")
		b.WriteString(hugeHostile)
		b.WriteString(" ")
	}
	return b.String()[:9000]
}

// BenchmarkHostileFrame measures one frame of a chat in which every string
// field the host controls is ~9 KB (tool names, titles, status fields,
// option labels, questions, usage model, ...): each iteration applies a
// usage change to the streaming turn (its message re-renders), runs the
// frame tick and draws the screen at 120×40. Budget: one frame (16 ms).
func BenchmarkHostileFrame(b *testing.B) {
	h := hostile9K()
	m, _ := newTestModel(b, 120, 40)
	m = send(b, m, picker.OpenSessionMsg{Session: testSession})
	m = send(b, m, snapshotEvent(b, testSession, ahpwire.SessionState{Provider: h, Title: h, Activity: h, Lifecycle: ahpwire.LifecycleReady,
		WorkingDirectories: []string{h}, DefaultChat: testChat,
		Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: h, Description: h, Activity: h, WorkingDirectories: []string{h}}}}))
	if m.chat == nil {
		b.Fatal("chat not opened")
	}
	m = send(b, m, snapshotEvent(b, testChat, hostileChat(h)))
	seq := uint64(10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := int64(i)
		m = send(b, m, envelope(seq, &ahpwire.ChatUsage{TurnID: "t2", Usage: ahpwire.UsageInfo{InputTokens: &n, Model: h}}))
		seq++
		m = send(b, m, app.FrameMsg{})
		_ = m.View()
	}
}
