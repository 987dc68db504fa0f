package render

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestLiveTerminalLinesAtScrollsSideways: LinesAt starts each line at a
// display column, in the emulator (a wide character cut in half shows as
// a blank) and in plain text.
func TestLiveTerminalLinesAtScrollsSideways(t *testing.T) {
	lt := NewLiveTerminal(ptyState(), true) // 40 columns
	feed(lt, "abcdefghij\x1b[32mKLM\x1b[0m\r\n漢字xyz\r\n")
	if got := lt.LinesAt(0, 2, 8, 4, false); len(got) != 2 || got[0] != "ijKL" || got[1] != "" {
		t.Fatalf("emulator lines from column 8: %q", got)
	}
	if got := lt.LinesAt(0, 2, 1, 3, false); got[1] != " 字" {
		t.Fatalf("wide character cut by the scroll: %q", got[1])
	}
	if got := lt.LinesAt(0, 1, 10, 3, true); got[0] != "\x1b[32mKLM\x1b[m" {
		t.Fatalf("styles kept: %q", got[0])
	}
	assertNoRawBytes(t, lt.LinesAt(0, 2, 9, 10, true)[0])
	plain := NewLiveTerminal(ahpwire.TerminalState{}, false)
	feed(plain, "short\r\n"+"0123456789abcdef\r\n")
	if got := plain.LinesAt(0, 2, 10, 20, false); got[0] != "" || got[1] != "abcdef" {
		t.Fatalf("plain lines from column 10: %q", got)
	}
}
