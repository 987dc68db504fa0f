package acp

import "time"

// Some adapters break after a cancel: Claude Code's old adapter
// (@zed-industries/claude-agent-acp 0.23.1) ended the next prompt at once,
// empty, and every later answer landed under the prompt after it. The
// bridge cannot repair that, but it does not let it pass silently: a
// prompt that ends within emptyTurnWindow with no output, right after a
// cancelled one in the same session, ends as an error that says so.

// emptyTurnWindow is how fast such a prompt ends.
const emptyTurnWindow = time.Second

// emptyAfterCancel is the error of such a prompt.
const emptyAfterCancel = "The agent ended this prompt at once with no answer, right after the last one was cancelled: " +
	"some adapters do so after a cancel (and then answer one prompt late; e.g. @zed-industries/claude-agent-acp 0.23.1: " +
	"use @agentclientprotocol/claude-agent-acp). Send the prompt again, or start a new session."

// markCancelled records that the session's running prompt was cancelled.
func (s *session) markCancelled(v bool) {
	s.mu.Lock()
	s.cancelled = v
	s.mu.Unlock()
}

// wasCancelled reports (and forgets) whether the session's last prompt was
// cancelled.
func (s *session) wasCancelled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.cancelled
	s.cancelled = false
	return v
}

// silent reports whether the turn produced nothing (no text, reasoning,
// tool call or plan).
func (tm *turnMap) silent() bool {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.parts == 0 && len(tm.tools) == 0
}
