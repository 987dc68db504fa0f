package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// sgrOnly matches the only escape sequences a drawn terminal line may hold.
var sgrOnly = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// assertNoRawBytes fails when s holds anything but text and SGR sequences.
func assertNoRawBytes(t testing.TB, s string) {
	t.Helper()
	rest := sgrOnly.ReplaceAllString(s, "")
	for i, r := range rest {
		if r == 0x1b || (r < 0x20 && r != '\n') || (r >= 0x80 && r < 0xa0) || r == 0x7f {
			t.Fatalf("raw control %U at %d in %q", r, i, rest[max(0, i-20):min(len(rest), i+20)])
		}
	}
}

func ptyState() ahpwire.TerminalState {
	return ahpwire.TerminalState{Title: "bash", Cols: ahpwire.Ptr[int64](40), Rows: ahpwire.Ptr[int64](5)}
}

// feed applies data chunks the way the TUI does.
func feed(lt *LiveTerminal, chunks ...string) {
	st := lt.State()
	for _, c := range chunks {
		a := &ahpwire.TerminalData{Data: c}
		n := len(st.Content)
		if n > 0 && st.Content[n-1].Type == ahpwire.TerminalPartUnclassified {
			cp := append([]ahpwire.TerminalContentPart(nil), st.Content...)
			cp[n-1] = cp[n-1].AppendText(c)
			st.Content = cp
		} else {
			st.Content = append(append([]ahpwire.TerminalContentPart(nil), st.Content...), ahpwire.TerminalContentPart{Type: ahpwire.TerminalPartUnclassified, Value: c})
		}
		lt.Apply(st, a)
	}
}

func TestLiveTerminalProgressBarAndColours(t *testing.T) {
	lt := NewLiveTerminal(ptyState(), true)
	var chunks []string
	for i := 0; i <= 10; i++ {
		chunks = append(chunks, fmt.Sprintf("\r[%-10s] %3d%%", strings.Repeat("#", i), i*10))
	}
	feed(lt, append(chunks, "\r\n\x1b[31mFAIL\x1b[0m done\r\n")...)
	plain := lt.Lines(0, lt.LineCount(), 80, false)
	if len(plain) != 2 || plain[0] != "[##########] 100%" || plain[1] != "FAIL done" {
		t.Fatalf("lines %q", plain)
	}
	styled := lt.Lines(1, 1, 80, true)[0]
	if !strings.Contains(styled, "\x1b[31m") && !strings.Contains(styled, "\x1b[38;5;1m") {
		t.Fatalf("no red in %q", styled)
	}
	assertNoRawBytes(t, styled)
	if got := lt.Text(); got != "[##########] 100%\nFAIL done" {
		t.Fatalf("text %q", got)
	}
}

func TestLiveTerminalScrollsAndClears(t *testing.T) {
	lt := NewLiveTerminal(ptyState(), true)
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	feed(lt, b.String())
	if n := lt.LineCount(); n != 50 {
		t.Fatalf("line count %d", n)
	}
	if l := lt.Lines(49, 1, 80, false); l[0] != "line 50" {
		t.Fatalf("line 50: %q", l)
	}
	feed(lt, "\x1b[2J\x1b[Hclean")
	last := lt.Lines(lt.LineCount()-1, 1, 80, false)
	if last[0] != "clean" {
		t.Fatalf("after clear %q", last)
	}
}

func TestLiveTerminalPlainText(t *testing.T) {
	lt := NewLiveTerminal(ahpwire.TerminalState{}, false)
	feed(lt, "a\r\nb\x1b[31mc\r\n\tx")
	if got := lt.Lines(0, 10, 80, true); len(got) != 3 || got[1] != "bc" || got[2] != "        x" {
		t.Fatalf("plain lines %q", got)
	}
}

// hostileStream has every class of escape sequence and control a host
// could send, including the queries a terminal would answer.
func hostileStream() []string {
	return []string{
		"\x1b[6n", "\x1b[5n", "\x1b[?6n", "\x1b[c", "\x1b[>c", "\x1b[=c", "\x1b[>q", "\x1b[14t", "\x1b[18t", // queries
		"\x1b[?2048h", "\x1b[$p", "\x1b[?25$p", "\x1b[?1049h", "\x1b[?1000h\x1b[?1006h", "\x1b[?2004h", "\x1b[?1004h", // modes
		"\x1b]0;title\x07", "\x1b]52;c;aGVsbG8=\x07", "\x1b]10;?\x1b\\", "\x1b]11;?\x07", "\x1b]4;1;?\x07", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"\x1bP$qm\x1b\\", "\x1bPq#0;2;0;0;0#0~~@@vv@@~~\x1b\\", "\x1bP+q544e\x1b\\", // DCS: DECRQSS, sixel, XTGETTCAP
		"\x1b_Gf=100;AAAA\x1b\\", "\x1b^pm\x1b\\", "\x1bXsos\x1b\\", // APC (kitty graphics), PM, SOS
		"\x9b31m8bit\x9d0;x\x9c", "\x1bc", "\x1b7\x1b8", "\x1b(0lqk\x1b(B", "\x07\x08\x0b\x0c\x0e\x0f\x7f",
		"\u202Eevil\u202C", "\x1b[1;31;4;53;58:5:2m\x1b[38;2;1;2;3mrgb\x1b[0m", "\x1b[?1049l", "end\r\n",
	}
}

func TestLiveTerminalHostileStreamNeverAnswersOrLeaks(t *testing.T) {
	lt := NewLiveTerminal(ptyState(), true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		feed(lt, hostileStream()...)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the emulator blocked on a terminal query (it tried to answer)")
	}
	for _, l := range lt.Lines(0, lt.LineCount(), 200, true) {
		assertNoRawBytes(t, l)
	}
}

// A snapshot or a single action holding far more output than the view can
// use is emulated from its tail only, so it costs bounded UI time.
func TestLiveTerminalHugeSnapshotReplaysTail(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 8<<20; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	st := ptyState()
	st.Content = []ahpwire.TerminalContentPart{{Type: ahpwire.TerminalPartUnclassified, Value: b.String() + "the end"}}
	start := time.Now()
	lt := NewLiveTerminal(st, true)
	if got := lt.Lines(lt.LineCount()-1, 1, 80, false); got[0] != "the end" {
		t.Fatalf("last line %q", got)
	}
	if lt.LineCount() > TerminalScrollback+5 {
		t.Fatalf("%d lines", lt.LineCount())
	}
	t.Logf("8 MB snapshot shown in %v", time.Since(start))
	feed(lt, "\x1b[8;10;20t")
	lt.Apply(lt.State(), &ahpwire.TerminalResized{Cols: 50, Rows: 10})
	if lt.emu.Width() != 50 || lt.emu.Height() != 10 {
		t.Fatalf("resize: %dx%d", lt.emu.Width(), lt.emu.Height())
	}
}
