package tui

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
)

// slowCompletions answers completions only after a long delay (or when the
// request is cancelled): a host that is slow to complete.
type slowCompletions struct {
	fakeBackend
	delay time.Duration
}

func (s *slowCompletions) HostFeatures() ahpclient.HostFeatures {
	return ahpclient.HostFeatures{CompletionTriggerCharacters: []string{"@", "/"}}
}

func (s *slowCompletions) Completions(ctx context.Context, _, _ string, _ int) ([]ahpwire.CompletionItem, error) {
	select {
	case <-time.After(s.delay):
		return []ahpwire.CompletionItem{fileItem("main.go")}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// BenchmarkKeystrokeSlowCompletions measures a key press (Update + View)
// while typing a completion token ("@x…") with 10,000 messages in the
// transcript and a host that takes 2 s to answer `completions`: every key
// changes the token, every fourth key also fires the debounce, which
// cancels the previous request and starts a new one (its command runs on
// its own goroutine, as Bubble Tea runs commands). Compare ns/key-10k with
// BenchmarkKeystroke: the budget is the same.
func BenchmarkKeystrokeSlowCompletions(b *testing.B) {
	be := &slowCompletions{delay: 2 * time.Second}
	n := 0
	m := newModel(Options{
		Backend: be, Host: "bench", Dark: true, Editor: "true",
		Now: func() time.Time { return fixedNow }, NewID: func() string { n++; return fmt.Sprintf("id-%d", n) },
		FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond,
	})
	m = send(b, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = openChat(b, m, benchChat(5000))
	nm, _ := m.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	m = nm.(Model)
	var inflight []chan struct{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := tea.KeyPressMsg{Code: 'x', Text: "x"}
		if i%2 == 1 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		nm, _ := m.Update(k)
		m = nm.(Model)
		if i%4 == 3 {
			// The debounce fires: the request starts off the Update loop.
			due := chat.CompletionDueMsg{Chat: m.chat.URI, ID: m.chat.Extras.Completer.ID}
			nm, cmd := m.Update(due)
			m = nm.(Model)
			if cmd != nil {
				done := make(chan struct{})
				inflight = append(inflight, done)
				go func() { cmd(); close(done) }()
			}
		}
		_ = m.View()
	}
	b.StopTimer()
	m.chat.Extras.Completer.Reset() // cancels the request in flight
	for _, d := range inflight {
		select {
		case <-d:
		case <-time.After(5 * time.Second):
			b.Fatal("a cancelled completions request did not return")
		}
	}
}
