package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

const hostileTerm = "ahp-terminal:/hostile"

// hostileTermOutput is about n bytes of terminal output in chunks of
// chunk bytes (cut anywhere, even inside sequences): coloured lines,
// cursor movement and clears, every hostile string of hostileStrings,
// terminal queries, and a `\r` progress loop of progress steps at the end.
func hostileTermOutput(n, chunk, progress int) []string {
	queries := "\x1b[6n\x1b[5n\x1b[c\x1b[>c\x1b[?2048h\x1b[?25$p\x1b]10;?\x07\x1b]11;?\x1b\\\x1b]4;1;?\x07\x1bP$qm\x1b\\\x1b[18t"
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\x1b[3%dmline %d\x1b[0m ordinary output\r\n", i%8, i)
		case 1:
			b.WriteString(hostileStrings[i%len(hostileStrings)])
			b.WriteString("\r\n")
		case 2:
			b.WriteString(queries)
		case 3:
			fmt.Fprintf(&b, "\x1b[%d;%dH\x1b[2Kmoved %d\x1b[?1049h\x1b[2J\x1b[?1049l\r\n", i%30, i%80, i)
		}
	}
	// The progress loop starts on the screen's last row (CSI 999;1H is
	// clamped to it), so the end of the stream is the last lines drawn
	// whatever row the cursor movement above left the cursor on (without
	// it, whether "all done" was in the inline window depended on n).
	b.WriteString("\x1b[999;1H\r\n")
	for i := 1; i <= progress; i++ {
		fmt.Fprintf(&b, "\rprogress %d/%d", i, progress)
	}
	b.WriteString("\r\nall done\r\n")
	s := b.String()
	var out []string
	for len(s) > 0 {
		k := min(chunk, len(s))
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

// terminalChat opens a chat whose running tool call shows hostileTerm,
// and delivers the terminal's (empty) snapshot.
func terminalChat(t testing.TB, w, h int) Model {
	m, _ := newTestModel(t, w, h)
	pty := true
	tool := ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolRunning, ToolCallID: "tc1", ToolName: "run_in_terminal", DisplayName: "Run in terminal",
		InvocationMessage: ahpwire.PlainPtr("Running `make`"), ToolInput: ahpwire.InlineInput(`{"command":"make"}`),
		Confirmed: ahpwire.ConfirmedNotNeeded,
		Content:   []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: hostileTerm, Title: "bash", IsPty: &pty}},
	}}
	m = openChat(t, m, chatState(nil, activeTurn(tool)))
	if m.c.Channels.Terms[hostileTerm] == nil {
		t.Fatalf("the on-screen terminal was not followed")
	}
	st := ahpwire.TerminalState{Title: "bash", Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30),
		Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: testSession}}
	return send(t, m, snapshotEvent(t, hostileTerm, st))
}

func termData(seq uint64, data string) connEventMsg {
	return connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{
		Channel: hostileTerm, ServerSeq: seq, Action: &ahpwire.TerminalData{Data: data}}}}
}

// TestHostileTerminalStreamLeavesFramesClean streams 512 KB of hostile
// terminal output and a 10,000-step progress loop through the whole TUI
// (client events → reducer → emulator → renderer → frame): no frame holds
// anything but text, SGR and OSC 8, and a keystroke still echoes.
func TestHostileTerminalStreamLeavesFramesClean(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	if testing.Short() {
		t.Skip("512 KB stream")
	}
	const w, h = 100, 30
	m := terminalChat(t, w, h)
	// 512 KB (+ the 10,000-step progress loop: 720 KB in 177 chunks, 4,650
	// lines) is past every bound of the terminal's state: maxReplay 256 KB
	// and TerminalScrollback (2,000 lines); it was 2 MB (18,500 lines), which
	// crossed the same bounds at four times the cost (60 s under -race, the
	// emulator's per-byte work). BenchmarkTerminalChunkAndKey streams 10 MB.
	chunks := hostileTermOutput(512<<10, 4096, 10000)
	var cmd tea.Cmd
	for i, c := range chunks {
		var nm tea.Model
		nm, cmd = m.Update(termData(uint64(10+i), c))
		m = nm.(Model)
		if i%16 == 0 {
			checkHostileFrame(t, fmt.Sprintf("chunk %d", i), m, w, h)
		}
	}
	m = runCmds(t, m, cmd, 0) // the last chunk's frame
	checkHostileFrame(t, "end", m, w, h)
	if v := viewText(m); !strings.Contains(v, "all done") || !strings.Contains(v, "progress 10000/10000") {
		t.Fatalf("the end of the stream is not on screen:\n%s", v)
	}
	// The composer still takes a key and shows it.
	m = send(t, m, tea.KeyPressMsg{Code: 'z', Text: "z"})
	if !strings.Contains(viewText(m), "z") || m.chat.Composer.Value() != "z" {
		t.Fatal("keystroke not echoed after the stream")
	}
}

// BenchmarkTerminalChunkAndKey is the UI thread's work per 4 KB hostile
// terminal/data envelope (apply + frame), and per keystroke with a terminal
// that has received 10 MB: the keystroke echo budget.
func BenchmarkTerminalChunkAndKey(b *testing.B) {
	m := terminalChat(b, 120, 40)
	chunks := hostileTermOutput(10<<20, 4096, 100000)
	for i, c := range chunks {
		nm, _ := m.Update(termData(uint64(10+i), c))
		m = nm.(Model)
	}
	_ = m.View()
	var tChunk, tKey time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		nm, _ := m.Update(termData(uint64(10+len(chunks)+i), chunks[i%len(chunks)]))
		m = nm.(Model)
		_ = m.View()
		t1 := time.Now()
		m = keystroke(m, i)
		tKey += time.Since(t1)
		tChunk += t1.Sub(t0)
	}
	b.StopTimer()
	b.ReportMetric(float64(tChunk.Nanoseconds())/float64(b.N), "ns/chunk+frame")
	b.ReportMetric(float64(tKey.Nanoseconds())/float64(b.N), "ns/key")
}
