package ahphost

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// configSchemaOf decodes a session's config schema.
func configSchemaOf(t *testing.T, st ahpwire.SessionState) ahpwire.SessionConfigSchema {
	t.Helper()
	if st.Config == nil {
		t.Fatal("session has no config")
	}
	var s ahpwire.SessionConfigSchema
	must(t, json.Unmarshal(st.Config.Schema, &s))
	return s
}

// TestConfigSchemaChangeReachesSubscribers: "/demo config" changes the
// session's configuration schema after creation (agent.ConfigHooks); a
// subscribed client gets session/stateReplaced and, reduced with its own
// reducer, sees the new setting; the host validates later config changes
// against the new schema; a later subscriber's snapshot has it; "/demo
// config reset" takes it away; clients cannot dispatch stateReplaced.
func TestConfigSchemaChangeReachesSubscribers(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	const session = "ahp-session:/s1"
	w.call("createSession", map[string]any{"channel": session})
	st, _ := sessionWire(t, w, session)
	if _, ok := configSchemaOf(t, st).Properties[demo.ConfigEffort]; ok {
		t.Fatal("effort before /demo config")
	}
	chat := st.DefaultChat
	readChat(t, w, chat, 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo config", seq)
	e := w.actionOfType(session, ahpwire.ActionSessionStateReplaced)
	a, err := ahpwire.DecodeAction(e.Action)
	must(t, err)
	st = ahpstate.ReduceSession(st, a)
	p, ok := configSchemaOf(t, st).Properties[demo.ConfigEffort]
	if !ok || !p.SessionMutable || len(p.Enum) != 3 || string(st.Config.Values[demo.ConfigEffort]) != `"medium"` {
		t.Fatalf("after /demo config: schema %s values %v", st.Config.Schema, st.Config.Values)
	}
	if st.DefaultChat != chat || len(st.Chats) != 1 || st.Lifecycle != ahpwire.LifecycleReady {
		t.Fatalf("the replaced state lost the session: %+v", st)
	}
	_, _ = driveTurn(t, w, chat, "t1", true, &seq)

	// The host now accepts the new setting...
	change := func(v string) envelope {
		seq++
		w.notify("dispatchAction", map[string]any{"channel": session, "clientSeq": seq,
			"action": map[string]any{"type": "session/configChanged", "config": map[string]any{demo.ConfigEffort: v}}})
		return w.action("configChanged", func(e envelope) bool {
			return e.typ() == ahpwire.ActionSessionConfigChanged && e.Origin != nil && e.Origin.ClientSeq == seq
		})
	}
	if e := change("high"); e.RejectionReason != "" {
		t.Fatalf("effort=high rejected: %s", e.RejectionReason)
	}
	// ...which a later subscriber sees in its snapshot.
	w2 := dial(t, u, nil)
	w2.initialize("c2", nil, nil)
	st2, _ := sessionWire(t, w2, session)
	if _, ok := configSchemaOf(t, st2).Properties[demo.ConfigEffort]; !ok || string(st2.Config.Values[demo.ConfigEffort]) != `"high"` {
		t.Fatalf("snapshot config %s %v", st2.Config.Schema, st2.Config.Values)
	}

	// reset removes it for both clients, and the host refuses it again.
	seq++
	w.sendMessage(chat, "t2", "/demo config reset", seq)
	e = w2.actionOfType(session, ahpwire.ActionSessionStateReplaced)
	a, err = ahpwire.DecodeAction(e.Action)
	must(t, err)
	st2 = ahpstate.ReduceSession(st2, a)
	if _, ok := configSchemaOf(t, st2).Properties[demo.ConfigEffort]; ok || st2.Config.Values[demo.ConfigEffort] != nil {
		t.Fatalf("after reset: %s %v", st2.Config.Schema, st2.Config.Values)
	}
	_, _ = driveTurn(t, w, chat, "t2", true, &seq)
	if e := change("low"); e.RejectionReason == "" {
		t.Fatal("effort accepted after reset")
	}
	// Clients cannot replace a session's state.
	seq++
	w.notify("dispatchAction", map[string]any{"channel": session, "clientSeq": seq,
		"action": ahpwire.SessionStateReplaced{State: st2}})
	if e := w.action("the client's stateReplaced", func(e envelope) bool {
		return e.typ() == ahpwire.ActionSessionStateReplaced && e.Origin != nil
	}); e.RejectionReason == "" {
		t.Fatal("a client replaced the session state")
	}
}
