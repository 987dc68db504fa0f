package acp

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// activities lists the chat/activityChanged values k saw on chat.
func (k *client2) activities(chat string) []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for _, env := range k.envs {
		if a, ok := env.Action.(*ahpwire.ChatActivityChanged); ok && env.Channel == chat {
			out = append(out, a.Activity)
		}
	}
	return out
}

// Claude Code's adapter reports its model API's retries only to clients
// advertising AIR's sessionFailure: the bridge advertises it, shows a
// retry warning as the turn's activity line and clears it when the agent
// answers; an error report names the failed turn's error (the adapter
// leaves its own detail out then).
func TestAgentFailureReportsAreShown(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "air")
	// Waited for on the envelopes the client records, not on snapshots:
	// a re-subscribe's snapshot covers the envelopes before it.
	e.prompt(e.c, chat, "t1", "airretry")
	var acts []string
	e.eventually("the retry shown, then cleared", func() bool {
		acts = e.c.activities(chat)
		return len(acts) >= 2 && acts[len(acts)-1] == ""
	})
	if acts[0] != "agent: Retrying Fake, attempt 1 of 3." {
		t.Fatalf("activities %q, want the retry then cleared", acts)
	}
	if got := markdown(e.finished(e.c, chat, "t1")); got != "recovered after a retry" {
		t.Fatalf("answer %q (the agent saw no AIR capability?)", got)
	}
	turn := e.run(e.c, chat, "t2", "airdown")
	if turn.State != ahpwire.TurnError || !strings.Contains(errText(turn), "Claude's API is unavailable (529 overloaded).") {
		t.Fatalf("failed turn: %s %q", turn.State, errText(turn))
	}
}
