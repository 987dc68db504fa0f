package ahphost

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// SeedSession creates a ready session at sessionURI whose default chat
// holds the given finished turns (oldest first), as if they had been
// streamed before any client connected. It returns the default chat's URI.
// It is meant for benchmarks and tests (e.g. a 1000-turn, ~5 MB chat);
// no action envelopes are produced for the seeded turns.
func (h *Host) SeedSession(sessionURI string, turns []ahpwire.Turn) (string, error) {
	if kindOf(sessionURI) != chanSession {
		return "", fmt.Errorf("ahphost: seed: %q is not an ahp-session:/ URI", sessionURI)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.st.seed(sessionURI, turns)
}

// historySeeder is implemented by the demo agent: "/demo history N" opens
// a session of N synthetic turns the host seeds before the turn runs.
type historySeeder interface {
	HistoryTurns(text string) (int, bool)
	HistorySession(n int) string
}

// demoHistory seeds the chat "/demo history N" asks for (once per N).
// h.mu is held.
func (s *store) demoHistory(text string) {
	hs, ok := s.h.agent.(historySeeder)
	if !ok {
		return
	}
	if n, ok := hs.HistoryTurns(text); ok && s.sessions[hs.HistorySession(n)] == nil {
		if _, err := s.seed(hs.HistorySession(n), SyntheticTurns(n, 2<<10)); err != nil {
			s.h.log.Warn("demo history", "err", err)
		}
	}
}

// seed is SeedSession with h.mu held.
func (s *store) seed(sessionURI string, turns []ahpwire.Turn) (string, error) {
	h := s.h
	if s.sessions[sessionURI] != nil {
		return "", fmt.Errorf("ahphost: seed: session %s already exists", sessionURI)
	}
	provider := DefaultProvider
	if len(s.root.Agents) > 0 {
		provider = s.root.Agents[0].Provider
	}
	s.newSession(sessionURI, provider, []string{fileURI(h.opts.Dir)})
	s.finishSession(sessionURI)
	se := s.sessions[sessionURI]
	ce := s.chat(se.state.DefaultChat)
	ce.state.Turns = append(ce.state.Turns[:len(ce.state.Turns):len(ce.state.Turns)], turns...)
	if n := len(turns); n > 0 {
		if last := turns[n-1]; last.StartedAt != "" {
			ce.state.ModifiedAt = last.StartedAt
		}
		if t := turns[0].Message.Text; t != "" {
			s.maybeTitleSession(ce, t)
		}
	}
	s.refLargeParts(ce)
	s.syncChat(ce)
	s.persistChanged(ce.uri)
	return ce.uri, nil
}

// SyntheticTurns returns n finished turns of roughly turnBytes bytes of
// markdown each (deterministic), for SeedSession: turn i has id "seed-i",
// a user message, a reasoning part, a markdown answer with a code block and
// a completed read-only tool call.
func SyntheticTurns(n, turnBytes int) []ahpwire.Turn {
	base := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	turns := make([]ahpwire.Turn, n)
	for i := range turns {
		id := "seed-" + strconv.Itoa(i)
		started := base.Add(time.Duration(i) * time.Minute)
		var md strings.Builder
		fmt.Fprintf(&md, "## Answer %d\n\nHere is what I found for question %d.\n\n```go\nfunc answer%d() int { return %d }\n```\n\n", i, i, i, i)
		for line := 0; md.Len() < turnBytes; line++ {
			fmt.Fprintf(&md, "- point %d of answer %d: the quick brown fox jumps over the lazy dog\n", line, i)
		}
		tool := ahpwire.ToolCallState{
			Status:            "completed",
			ToolCallID:        id + "-t",
			ToolName:          "read_file",
			DisplayName:       "Read file",
			InvocationMessage: ahpwire.PlainPtr(fmt.Sprintf("Read part%d.go", i)),
			Confirmed:         "not-needed",
			Success:           ahpwire.Ptr(true),
			PastTenseMessage:  ahpwire.PlainPtr(fmt.Sprintf("Read part%d.go", i)),
			Content:           []ahpwire.ToolResultContent{{Type: "text", Text: fmt.Sprintf("package part%d", i)}},
		}
		turns[i] = ahpwire.Turn{
			ID:        id,
			StartedAt: isoTime(started),
			Duration:  ahpwire.Ptr(int64(1500)),
			Message:   ahpwire.UserMessage(fmt.Sprintf("Question %d: how does part %d of the code work?", i, i)),
			ResponseParts: []ahpwire.ResponsePart{
				ahpwire.ReasoningPart(id+"-r", fmt.Sprintf("Looking at part %d.", i)),
				{Kind: ahpwire.PartToolCall, ToolCall: &tool},
				ahpwire.MarkdownPart(id+"-m", md.String()),
			},
			State: ahpwire.TurnComplete,
		}
	}
	return turns
}
