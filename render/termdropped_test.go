package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestLiveTerminalSaysOutputWasDropped: a terminal whose oldest output was
// dropped (its content starts with ahpwire.TerminalDroppedMarker) is shown
// with a line saying so, pty or not (issue 24 item 6, the viewer).
func TestLiveTerminalSaysOutputWasDropped(t *testing.T) {
	for _, pty := range []bool{true, false} {
		run := baseTool(ahpwire.ToolRunning)
		run.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: "ahp-terminal:/t1", IsPty: ahpwire.Ptr(pty)}}
		m := msgOf(apply(startState(), toolStart(run)))
		st := ahpwire.TerminalState{Title: "sh", Content: []ahpwire.TerminalContentPart{{
			Type: ahpwire.TerminalPartUnclassified, Value: ahpwire.TerminalDroppedMarker + strings.Repeat("line\r\n", 5000) + "end\r\n"}}}
		lt := NewLiveTerminal(st, pty)
		r := New(DarkStyles())
		out := ansi.Strip(r.RenderMessage(m, 80, ViewOpts{Now: t0, Terminals: map[string]*LiveTerminal{"ahp-terminal:/t1": lt}}).String())
		if !strings.Contains(out, "earlier output dropped (more than 4 MiB)") || !strings.Contains(out, "end") {
			t.Fatalf("pty=%v:\n%s", pty, out)
		}
	}
}
