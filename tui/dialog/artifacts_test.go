package dialog

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// TestTextViewerWrapsLongLines: an artifact's long line is wrapped to the
// dialog's width, not cut: its end can be read (the note the state budget
// leaves lost its second half), and scrolling goes through every row.
func TestTextViewerWrapsLongLines(t *testing.T) {
	long := "This content was removed to keep the host's saved state within its size budget " +
		"(the oldest archived sessions go first; ahptui serve --state-budget sets it)."
	unbroken := strings.Repeat("x", 150) + "END"
	v := NewTextViewer(keymap.Default().Background, "Created docs/CHANGES.md", long+"\nshort line\n"+unbroken)
	sty := uikit.NewStyles(render.DarkStyles())
	out := ansi.Strip(v.View(&sty, 70, 30))
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ", "─", " ", "╮", " ", "╯", " ").Replace(out)), " ")
	if !strings.Contains(flat, "--state-budget sets it).") || !strings.Contains(out, "END") || strings.Contains(out, "…\n") {
		t.Fatalf("long lines cut:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 70 {
			t.Fatalf("a row wider than the screen (%d): %q", ansi.StringWidth(l), l)
		}
	}
	// Down scrolls row by row to the last row, no further.
	for range 20 {
		v.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		out = ansi.Strip(v.View(&sty, 70, 30))
	}
	if !strings.Contains(out, "END") || strings.Contains(out, "short line") {
		t.Fatalf("scrolled to the end:\n%s", out)
	}
}
