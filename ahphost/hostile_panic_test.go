package ahphost

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestListSessionsHugeLimitWithCursor: a cursor plus limit 2^63−1 used to
// overflow start+limit and panic; the host must answer the page instead.
func TestListSessionsHugeLimitWithCursor(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	for _, s := range []string{"ahp-session:/a", "ahp-session:/b", "ahp-session:/c"} {
		w.call("createSession", map[string]any{"channel": s})
	}
	var first struct {
		Items      []json.RawMessage `json:"items"`
		NextCursor string            `json:"nextCursor"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": "ahp-root://", "limit": 1}), &first))
	if len(first.Items) != 1 || first.NextCursor == "" {
		t.Fatalf("first page %+v", first)
	}
	var rest struct {
		Items      []json.RawMessage `json:"items"`
		NextCursor string            `json:"nextCursor"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{
		"channel": "ahp-root://", "cursor": first.NextCursor, "limit": int64(math.MaxInt64),
	}), &rest))
	if len(rest.Items) != 2 || rest.NextCursor != "" {
		t.Fatalf("rest page: %d items, cursor %q", len(rest.Items), rest.NextCursor)
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestHandlerPanicClosesAndCleansUp: a panicking handler closes its
// connection with 1011, the connection leaves every broadcast set and the
// host count, and other clients are unaffected.
func TestHandlerPanicClosesAndCleansUp(t *testing.T) {
	handlers["test/panic"] = locked(func(*conn, *ahpwire.Message) (any, func(), *rpcError) { panic("boom") })
	t.Cleanup(func() { delete(handlers, "test/panic") })
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	bad := dial(t, u, nil)
	bad.initialize("bad", []string{"ahp-root://"}, nil)
	good := dial(t, u, nil)
	good.initialize("good", []string{"ahp-root://"}, nil)
	waitUntil(t, "two connections", func() bool { return h.Connections() == 2 })

	bad.request("test/panic", map[string]any{"channel": "ahp-root://"})
	if st := bad.closed(); st != websocket.StatusInternalError {
		t.Fatalf("close status %v, want 1011", st)
	}
	waitUntil(t, "panicked connection removed", func() bool { return h.Connections() == 1 })
	h.mu.Lock()
	n := len(h.st.subs[ahpwire.RootURI])
	h.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d root subscribers after the panic, want 1", n)
	}
	good.call("createSession", map[string]any{"channel": "ahp-session:/x"})
	good.actionOfType("ahp-root://", "root/activeSessionsChanged")
}

// agentFunc is an Agent whose Run calls f.
type agentFunc func()

func (agentFunc) Providers() []ahpwire.AgentInfo { return idleAgent{}.Providers() }

func (f agentFunc) Run(context.Context, Turn) error {
	f()
	return nil
}

// TestAgentPanicEndsTurn: a panicking agent ends its turn with chat/error
// and the host keeps serving.
func TestAgentPanicEndsTurn(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: agentFunc(func() { panic("agent boom") })})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	w.sendMessage(chat, "t1", "hello", 1)
	e := w.actionOfType(chat, "chat/error")
	if e.RejectionReason != "" {
		t.Fatalf("chat/error rejected: %s", e.RejectionReason)
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
}
