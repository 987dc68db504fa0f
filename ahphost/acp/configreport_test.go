package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// sessionConfig is the session's configuration as a subscribed client
// sees it: its snapshot reduced with every session action since.
func (e *env) sessionConfig(session string) *ahpwire.ConfigState {
	e.t.Helper()
	snap, err := e.c.c.Subscribe(e.ctx, session, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	var ss ahpwire.SessionState
	if err := json.Unmarshal(snap.State, &ss); err != nil {
		e.t.Fatal(err)
	}
	return ss.Config
}

// The agent changes its own configuration: its new mode reaches subscribed
// clients as session/configChanged and is not set back by the next turn;
// a new option (config_option_update) reaches them as
// session/stateReplaced, and the host then accepts a client's change to it.
func TestAgentConfigChangesReachClients(t *testing.T) {
	e := newEnv(t, opts{})
	p := ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: "fake", WorkingDirectory: fileURI(e.dir)}
	e.eventually("the agent's modes", func() bool { // as a client's new-session form asks first
		res, err := e.c.c.ResolveSessionConfig(e.ctx, p)
		return err == nil && len(res.Schema.Properties["mode"].Enum) == 2
	})
	session, chat := e.newSession(e.c, "cfg")
	if turn := e.run(e.c, chat, "t1", "setmode code"); markdown(turn) != "Switched to code." {
		t.Fatalf("setmode: %q %q", markdown(turn), errText(turn))
	}
	e.eventually("the new mode announced", func() bool {
		for _, en := range e.c.actions(session) {
			if a, ok := en.Action.(*ahpwire.SessionConfigChanged); ok && en.Origin == nil && string(a.Config["mode"]) == `"code"` {
				return true
			}
		}
		return false
	})
	if turn := e.run(e.c, chat, "t2", "mode"); markdown(turn) != "Mode: code." {
		t.Fatalf("the next turn set the mode back: %q", markdown(turn))
	}
	e.run(e.c, chat, "t3", "options")
	e.eventually("the new option announced", func() bool {
		for _, en := range e.c.actions(session) {
			if a, ok := en.Action.(*ahpwire.SessionStateReplaced); ok && a.State.Config != nil &&
				strings.Contains(string(a.State.Config.Schema), `"effort"`) && string(a.State.Config.Values["mode"]) == `"code"` {
				return true
			}
		}
		return false
	})
	if cfg := e.sessionConfig(session); cfg == nil || string(cfg.Values["effort"]) != `"low"` || !strings.Contains(string(cfg.Schema), `"mode"`) {
		t.Fatalf("snapshot config %+v", cfg)
	}
	if _, err := e.c.c.Dispatch(e.ctx, session, &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"effort": json.RawMessage(`"high"`)}}); err != nil {
		t.Fatal(err)
	}
	e.eventually("the option applied (set_config_option)", func() bool {
		e.b.mu.Lock()
		s := e.b.sessions[session]
		e.b.mu.Unlock()
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.applied["effort"] == "high"
	})
}

// A session created before the agent ever told its configuration gets it
// with its first turn: its mode is known (and shown) from then on.
func TestFirstSessionLearnsItsMode(t *testing.T) {
	e := newEnv(t, opts{})
	session, chat := e.newSession(e.c, "first")
	if cfg := e.sessionConfig(session); cfg != nil && len(cfg.Values) > 0 {
		t.Fatalf("config before the agent ran: %+v", cfg)
	}
	e.run(e.c, chat, "t1", "text")
	e.eventually("the session's mode", func() bool {
		cfg := e.sessionConfig(session)
		return cfg != nil && string(cfg.Values["mode"]) == `"ask"`
	})
}
