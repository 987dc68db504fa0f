// Interactive terminals: an agent's terminal with a pty behind it
// (agent.TerminalInputs) may be claimed by a client, whose terminal/input
// then reaches the pty; the client gives it back by claiming it for the
// session again.

package ahphost

import (
	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

var _ agent.TerminalInputs = turnChannels{}

// OnTerminalInput registers (nil removes) the input handler of an agent's
// terminal. The handler runs with the host lock held and must not block.
func (tc turnChannels) OnTerminalInput(uri string, handler func(data string)) {
	registerTermHandler(tc, func(s *store) *map[string]func(string) { return &s.ext.inputs }, uri, handler, handler == nil)
}

// registerTermHandler sets (or, remove, deletes) uri's entry in one of the
// store's terminal handler maps under the host lock: only for a terminal
// of the agent's running turn.
func registerTermHandler[F any](tc turnChannels, handlers func(*store) *map[string]F, uri string, handler F, remove bool) {
	tc.h.mu.Lock()
	defer tc.h.mu.Unlock()
	m := handlers(tc.h.st)
	if remove {
		delete(*m, uri)
		return
	}
	if tc.run.ctx.Err() != nil || tc.h.st.ext.terminals[uri] == nil {
		return
	}
	if *m == nil {
		*m = map[string]F{}
	}
	(*m)[uri] = handler
}

// claimable reports whether a client may take an interactive terminal: a
// terminal/claimed for itself while no other client holds it. h.mu is held.
func (s *store) claimable(uri string, t *ahpwire.TerminalState, a ahpwire.Action, clientID string) bool {
	c, ok := a.(*ahpwire.TerminalClaimed)
	if !ok || s.ext.inputs[uri] == nil || t.ExitCode != nil {
		return false
	}
	return t.Claim.Kind != ahpwire.ClaimClient && c.Claim.Kind == ahpwire.ClaimClient && c.Claim.ClientID == clientID
}

// terminalInput hands an accepted terminal/input to the terminal's pty.
// h.mu is held.
func (s *store) terminalInput(uri string, a ahpwire.Action) {
	in, ok := a.(*ahpwire.TerminalInput)
	if !ok {
		return
	}
	if fn := s.ext.inputs[uri]; fn != nil {
		fn(in.Data)
	}
}
