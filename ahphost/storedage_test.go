package ahphost

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// listerAgent is nameAgent with an index of sessions it kept.
type listerAgent struct {
	nameAgent
	stored []agent.StoredSession
}

func (a listerAgent) StoredSessions() []agent.StoredSession { return a.stored }

// TestStoredAgentSessionsKeepTheirAge: the sessions an agent lists from
// its own index (an ACP agent's sessions another host made: `ahptui
// --agent claude` lists those of `serve --agent claude`) are dated when the
// agent made them, not when this host first listed them: every one of them
// said "just now" in the session list, and a durable host kept that date,
// so a week later they all read "1w ago", however old they were.
func TestStoredAgentSessionsKeepTheirAge(t *testing.T) {
	state := t.TempDir()
	made := time.Now().Add(-72 * time.Hour).UTC().Truncate(time.Millisecond)
	const session = "ahp-session:/kept-by-the-agent"
	ag := listerAgent{nameAgent: nameAgent{"alpha"}, stored: []agent.StoredSession{{
		URI: session, Provider: "alpha", Title: "an old chat", Dir: t.TempDir(), CreatedAt: made.Format("2006-01-02T15:04:05.000Z"),
	}}}
	for start := 1; start <= 2; start++ { // listed, then restored from the database
		h, u := startDurable(t, state, Options{Agents: []Agent{ag}})
		w := dial(t, u, nil)
		w.initialize("c", nil, nil)
		if got := sessionModifiedAt(t, w, session); got.After(made.Add(time.Minute)) {
			t.Fatalf("start %d: the agent's session made %s ago is dated %s ago", start,
				time.Since(made).Round(time.Hour), time.Since(got).Round(time.Second))
		}
		w.close()
		must(t, h.Close())
	}
}

// sessionModifiedAt is the modifiedAt listSessions reports for session.
func sessionModifiedAt(t *testing.T, w *wsClient, session string) time.Time {
	t.Helper()
	var res ahpwire.ListSessionsResult
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": ahpwire.RootURI}), &res))
	for _, s := range res.Items {
		if s.Resource == session {
			at, err := ahpstate.ParseTime(string(s.ModifiedAt))
			must(t, err)
			return at
		}
	}
	t.Fatalf("session %s not listed", session)
	return time.Time{}
}
