package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/tui"
)

// frameWatch is the program's output; it records when the first frame and
// the first frame with the loaded session list were written.
type frameWatch struct {
	mu            sync.Mutex
	buf           bytes.Buffer
	first, loaded chan struct{}
	gotFirst      bool
	gotLoaded     bool
}

func (w *frameWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.gotFirst && bytes.Contains(w.buf.Bytes(), []byte("Sessions")) {
		w.gotFirst = true
		close(w.first)
	}
	if !w.gotLoaded && bytes.Contains(w.buf.Bytes(), []byte("no sessions yet")) {
		w.gotLoaded = true
		close(w.loaded)
	}
	return len(p), nil
}

// BenchmarkStartupToFirstFrame measures `ahptui demo` from nothing to the
// first frame: start the embedded host on loopback, connect (WebSocket +
// initialize), build the UI and render through Bubble Tea's real renderer
// into a buffer. ms-first is the first frame, ms-list the first frame that
// shows the (empty) session list fetched from the host.
func BenchmarkStartupToFirstFrame(b *testing.B) {
	var first, loaded time.Duration
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		start := time.Now()
		h, err := ahphost.New(ahphost.Options{Dir: dir, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		u, err := h.Listen("127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		c, err := ahpclient.New(ahpclient.Options{URL: u, StateDir: dir, ExplicitAck: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		w := &frameWatch{first: make(chan struct{}), loaded: make(chan struct{})}
		p := tea.NewProgram(tui.New(tui.Options{Backend: c, Host: "bench", Dark: true}),
			tea.WithInput(bytes.NewReader(nil)), tea.WithOutput(w), tea.WithWindowSize(120, 40),
			tea.WithoutSignals(), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
		done := make(chan struct{})
		go func() { _, _ = p.Run(); close(done) }()
		select {
		case <-w.first:
		case <-time.After(10 * time.Second):
			b.Fatal("no first frame")
		}
		first += time.Since(start)
		select {
		case <-w.loaded:
		case <-time.After(10 * time.Second):
			b.Fatal("session list never shown")
		}
		loaded += time.Since(start)
		b.StopTimer()
		p.Quit()
		<-done
		_ = c.Close()
		_ = h.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms-first")
	b.ReportMetric(float64(loaded.Microseconds())/1000/float64(b.N), "ms-list")
}

var _ io.Writer = (*frameWatch)(nil)
