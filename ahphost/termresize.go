// Resizing interactive terminals: a client typing into an agent's terminal
// sizes it to its view (terminal/resized), as a terminal emulator sizes its
// pty to its window. The agent learns the new size through
// agent.TerminalResizes (to resize the pty behind the terminal); an
// interactive terminal whose agent did not register a resize handler keeps
// its size, so that the clients' emulators never wrap the program's
// output at another width than the program does.

package ahphost

import (
	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

var _ agent.TerminalResizes = turnChannels{}

// OnTerminalResize registers (nil removes) the resize handler of an
// agent's terminal. The handler runs with the host lock held and must not
// block.
func (tc turnChannels) OnTerminalResize(uri string, handler func(cols, rows int)) {
	registerTermHandler(tc, func(s *store) *map[string]func(int, int) { return &s.ext.resizes }, uri, handler, handler == nil)
}

// fixedSize returns why a client may not resize an interactive terminal
// whose agent takes no resizes ("" when a is no resize or it may).
// h.mu is held.
func (s *store) fixedSize(uri string, a ahpwire.Action) string {
	if _, ok := a.(*ahpwire.TerminalResized); !ok || s.ext.inputs[uri] == nil || s.ext.resizes[uri] != nil {
		return ""
	}
	return "the terminal's size is fixed by its agent"
}

// terminalResize hands an accepted terminal/resized to the terminal's
// agent. h.mu is held.
func (s *store) terminalResize(uri string, a ahpwire.Action) {
	r, ok := a.(*ahpwire.TerminalResized)
	if !ok {
		return
	}
	if fn := s.ext.resizes[uri]; fn != nil {
		fn(int(r.Cols), int(r.Rows))
	}
}
