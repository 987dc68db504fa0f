package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

// benchAnswer is ~5 KB of mixed markdown (a finished assistant reply).
func benchAnswer(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Answer %d\n\nHere is what I found after reading the code. The reconnect loop **never resets** its backoff, so a `flaky` link makes every later reconnect slower.\n\n", i)
	for j := range 6 {
		fmt.Fprintf(&b, "- step %d: check the `timer` and the *jitter* before retrying; keep the lines short so the terminal stays readable\n", j)
	}
	b.WriteString("\n```go\nfunc backoff(attempt int) time.Duration {\n\td := base << attempt\n\tif d > max {\n\t\td = max\n\t}\n\treturn d + jitter()\n}\n```\n\n")
	b.WriteString("| option | default | meaning |\n|---|---|---|\n| Initial | 250ms | first delay |\n| Max | 30s | cap |\n\n")
	for b.Len() < 5000 {
		b.WriteString("The fix is small: reset the attempt counter once a connection has been up for a while, and add a test that drops the link twice in a row. ")
	}
	return b.String()
}

func benchChat(turns int) ahpwire.ChatState {
	ts := make([]ahpwire.Turn, turns)
	for i := range ts {
		ts[i] = finishedTurn(fmt.Sprintf("t%d", i), fmt.Sprintf("question number %d about the reconnect loop", i), benchAnswer(i))
	}
	return chatState(ts, nil)
}

func benchModel(b *testing.B, turns, w, h int) Model {
	b.Helper()
	m, _ := newTestModel(b, w, h)
	m = openChat(b, m, benchChat(turns))
	if m.chat == nil || len(m.chat.State.Messages) != 2*turns {
		b.Fatalf("setup failed: %d messages", len(m.chat.State.Messages))
	}
	return m
}

// keystroke types one rune (or deletes it) and draws the frame.
func keystroke(m Model, i int) Model {
	k := tea.KeyPressMsg{Code: 'x', Text: "x"}
	if i%2 == 1 {
		k = tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	nm, _ := m.Update(k)
	m = nm.(Model)
	_ = m.View()
	return m
}

// BenchmarkKeystroke measures one key press in the composer (Update + View)
// with 10,000 finished messages in the transcript, interleaved with the same
// key press on a 10-message transcript; x-small is the ratio (target ≤ 1.5).
func BenchmarkKeystroke(b *testing.B) {
	big := benchModel(b, 5000, 120, 40)
	small := benchModel(b, 5, 120, 40)
	for i := range 50 { // warm both
		big, small = keystroke(big, i), keystroke(small, i)
	}
	var tBig, tSmall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		big = keystroke(big, i)
		t1 := time.Now()
		small = keystroke(small, i)
		tSmall += time.Since(t1)
		tBig += t1.Sub(t0)
	}
	b.StopTimer()
	b.ReportMetric(float64(tBig.Nanoseconds())/float64(b.N), "ns/key-10k")
	b.ReportMetric(float64(tSmall.Nanoseconds())/float64(b.N), "ns/key-10")
	b.ReportMetric(float64(tBig)/float64(tSmall), "x-small")
}

// BenchmarkScrollKey measures a transcript scroll key (k = one line up) with
// 10,000 finished messages: the window moves, so lines are re-composed.
func BenchmarkScrollKey(b *testing.B) {
	m := benchModel(b, 5000, 120, 40)
	m = send(b, m, keyPress("tab"))
	up, down := tea.KeyPressMsg{Code: 'k', Text: "k"}, tea.KeyPressMsg{Code: 'j', Text: "j"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := up
		if i%40 >= 20 {
			k = down
		}
		nm, _ := m.Update(k)
		m = nm.(Model)
		_ = m.View()
	}
}

// BenchmarkAttachFirstFrame measures attaching to a chat with 1,000 finished
// turns (~5 MB of markdown): decoding the snapshot, projecting it and drawing
// the first full frame, with cold render caches. The "view50" variant is what
// the TUI actually requests (view.turns = 50; older turns are fetched when
// scrolling up).
func BenchmarkAttachFirstFrame(b *testing.B) {
	for _, n := range []int{1000, 50} {
		name := "all1000"
		if n == 50 {
			name = "view50"
		}
		b.Run(name, func(b *testing.B) {
			cs := benchChat(n)
			snap, err := ahpwire.NewSnapshot(testChat, cs, 1)
			if err != nil {
				b.Fatal(err)
			}
			ev := connEventMsg{ev: ahpclient.SnapshotEvent{Snapshot: snap, Reason: ahpclient.SnapshotSubscribe}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m, _ := newTestModel(b, 120, 40) // fresh renderer: cold caches
				m = send(b, m, picker.OpenSessionMsg{Session: testSession})
				ss := ahpwire.SessionState{Provider: "demo", Title: "bench", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat}
				m = send(b, m, snapshotEvent(b, testSession, ss))
				b.StartTimer()
				nm, _ := m.Update(ev)
				v := nm.(Model).View()
				if !strings.Contains(v.Content, "reset the attempt counter") {
					b.Fatal("first frame does not show the last answer")
				}
			}
			b.ReportMetric(float64(len(snap.State))/1e6, "MB-snapshot")
		})
	}
}
