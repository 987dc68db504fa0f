package tui

import (
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/render"
)

// TestTerminalCapNamedByTheViewer: the cap the viewer names is the one
// ahpstate enforces (render cannot import ahpstate).
func TestTerminalCapNamedByTheViewer(t *testing.T) {
	if render.TerminalOutputCapMiB<<20 != ahpstate.MaxTerminalOutputBytes {
		t.Fatalf("render says %d MiB, ahpstate caps at %d bytes", render.TerminalOutputCapMiB, ahpstate.MaxTerminalOutputBytes)
	}
}
