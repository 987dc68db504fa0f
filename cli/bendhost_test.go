package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
)

// bendHost is a scripted AHP host over a real loopback WebSocket that
// bends the rules the way real hosts were seen to (issue 21): it publishes
// VS Code-dialect session URIs (<provider>:/<id>), and its bends are
// switched on per test. It speaks just enough AHP for `sessions` and
// `exec --session`: initialize, listSessions, subscribe, dispatchAction of
// chat/turnStarted (answered with a streamed reply), ping.
type bendHost struct {
	t   *testing.T
	srv *httptest.Server
	// session and chat are the published URIs.
	session, chat string
	// wrongSnapshot answers every subscribe with a snapshot of another
	// resource.
	wrongSnapshot bool
	// dieMidTurn closes the first connection after the first reply part
	// (a host restart mid-turn); later connections are a fresh host that
	// knows neither session nor chat (-32002/initialize with no state).
	dieMidTurn bool
	// neverReady publishes the session in lifecycle "creating" for good.
	neverReady bool
	conns      atomic.Int32
	seq        atomic.Uint64
	mu         sync.Mutex
}

func newBendHost(t *testing.T) *bendHost {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_TOKEN", "")
	t.Setenv("AHPTUI_CONFIG", "")
	h := &bendHost{t: t, session: "demo:/s-1", chat: "demo:/s-1/chat"}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(func() {
		h.srv.CloseClientConnections()
		h.srv.Close()
	})
	return h
}

func (h *bendHost) url() string { return "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/" }

func (h *bendHost) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	n := int(h.conns.Add(1))
	ctx := r.Context()
	restarted := h.dieMidTurn && n > 1
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if m.Method == ahpwire.MethodDispatchAction {
			if !h.dispatched(ctx, ws, m, n) {
				return
			}
			continue
		}
		if !m.IsRequest() {
			continue
		}
		res, rpcErr := h.answer(m, restarted)
		var out *ahpwire.Message
		if rpcErr != nil {
			out = rpcErr
		} else if out, err = ahpwire.NewResult(*m.ID, res); err != nil {
			h.t.Error(err)
			return
		}
		if writeMsg(ctx, ws, out) != nil {
			return
		}
	}
}

// answer is the host's answer to request m.
func (h *bendHost) answer(m ahpwire.Message, restarted bool) (any, *ahpwire.Message) {
	switch m.Method {
	case ahpwire.MethodInitialize:
		return ahpwire.InitializeResult{ProtocolVersion: "1.0.0", ServerSeq: h.seq.Load()}, nil
	case ahpwire.MethodReconnect:
		if restarted {
			return nil, ahpwire.NewError(*m.ID, ahpwire.CodeInvalidParams, "unknown clientId", nil)
		}
		return ahpwire.ReconnectResult{Type: ahpwire.ReconnectReplay, Actions: []ahpwire.ActionEnvelope{}}, nil
	case ahpwire.MethodListSessions:
		return ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{{Resource: h.session, Provider: "demo",
			Title: "dialect session", Status: ahpwire.StatusIdle}}}, nil
	case ahpwire.MethodSubscribe:
		var p ahpwire.SubscribeParams
		_ = json.Unmarshal(m.Params, &p)
		if restarted {
			return nil, ahpwire.NewError(*m.ID, ahpwire.CodeNotFound, "no such channel", nil)
		}
		res := p.Channel
		if h.wrongSnapshot {
			res = "ahp-session:/someone-else"
		}
		var state any
		switch p.Channel {
		case h.session:
			st := ahpwire.SessionState{Provider: "demo", Title: "dialect session", Lifecycle: ahpwire.LifecycleReady,
				Status: ahpwire.StatusIdle, DefaultChat: h.chat,
				Chats: []ahpwire.ChatSummary{{Resource: h.chat, Title: "main", Status: ahpwire.StatusIdle}}}
			if h.neverReady {
				st.Lifecycle, st.DefaultChat, st.Chats = ahpwire.LifecycleCreating, "", nil
			}
			state = st
		case h.chat:
			state = ahpwire.ChatState{Resource: h.chat, Title: "main", Status: ahpwire.StatusIdle, Turns: []ahpwire.Turn{}}
		default:
			return nil, ahpwire.NewError(*m.ID, ahpwire.CodeNotFound, "no such channel", nil)
		}
		snap, err := ahpwire.NewSnapshot(res, state, h.seq.Load())
		if err != nil {
			h.t.Error(err)
		}
		return ahpwire.SubscribeResult{Snapshot: &snap}, nil
	}
	return map[string]any{}, nil
}

// dispatched answers a dispatched chat/turnStarted with its echo, a
// partial reply and (unless dieMidTurn on the first connection) the end.
func (h *bendHost) dispatched(ctx context.Context, ws *websocket.Conn, m ahpwire.Message, conn int) bool {
	var p ahpwire.DispatchActionParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		h.t.Errorf("dispatchAction: %v", err)
		return false
	}
	ts, ok := p.Action.(*ahpwire.ChatTurnStarted)
	if !ok {
		return true
	}
	var cid struct {
		ClientID string `json:"clientId"`
	}
	_ = json.Unmarshal(m.Params, &cid)
	send := func(a ahpwire.Action, origin *ahpwire.ActionOrigin) bool {
		env := ahpwire.ActionEnvelope{Channel: p.Channel, ServerSeq: h.seq.Add(1), Origin: origin, Action: a}
		n, err := ahpwire.NewNotification(ahpwire.MethodAction, env)
		if err != nil {
			h.t.Error(err)
			return false
		}
		return writeMsg(ctx, ws, n) == nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !send(ts, &ahpwire.ActionOrigin{ClientID: "exec", ClientSeq: p.ClientSeq}) ||
		!send(&ahpwire.ChatResponsePart{TurnID: ts.TurnID, Part: ahpwire.MarkdownPart("p1", "partial reply")}, nil) {
		return false
	}
	if h.dieMidTurn && conn == 1 {
		return false // the host process ends: the connection drops mid-turn
	}
	d := int64(5)
	return send(&ahpwire.ChatTurnComplete{TurnID: ts.TurnID, Duration: &d}, nil)
}

// writeMsg writes one JSON-RPC message.
func writeMsg(ctx context.Context, ws *websocket.Conn, m *ahpwire.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return ws.Write(ctx, websocket.MessageText, b) //nolint:wrapcheck // test helper
}

// TestDialectSessionURIsListAndExec: a host publishing <provider>:/<id>
// session URIs: `sessions` prints the full URI and `exec --session` with
// that URI sends into it unchanged.
func TestDialectSessionURIsListAndExec(t *testing.T) {
	h := newBendHost(t)
	code, out, errs := runIn(t, "", "sessions", h.url())
	if code != exitOK || !strings.Contains(out, "demo:/s-1") || strings.Contains(out, "ahp-session:/demo") {
		t.Fatalf("sessions: %d %q %q", code, out, errs)
	}
	code, out, errs = runIn(t, "", "exec", h.url(), "--session", "demo:/s-1", "hi")
	if code != execCompleted || !strings.Contains(out, "partial reply") {
		t.Fatalf("exec --session demo:/s-1: exit %d stdout %q stderr %q", code, out, errs)
	}
}

// TestSessionURIPassesThrough: a bare id gets ahp-session:/, any URI with
// a scheme is kept as it is.
func TestSessionURIPassesThrough(t *testing.T) {
	for in, want := range map[string]string{
		"0b6c":                   "ahp-session:/0b6c",
		"ahp-session:/0b6c":      "ahp-session:/0b6c",
		"demo:/s-1":              "demo:/s-1",
		"copilot-cli:/abc/def":   "copilot-cli:/abc/def",
		"9abc:x":                 "ahp-session:/9abc:x",
		"session with: a colon?": "ahp-session:/session with: a colon?",
	} {
		if got := sessionURI(in); got != want {
			t.Errorf("sessionURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExecSnapshotOfAnotherResource: a host answering the subscribe with
// a snapshot of another resource makes exec stop at once with a message
// naming both, instead of waiting for the session forever.
func TestExecSnapshotOfAnotherResource(t *testing.T) {
	h := newBendHost(t)
	h.wrongSnapshot = true
	code, _, errs := runIn(t, "", "exec", h.url(), "--session", "demo:/s-1", "hi")
	if code != execFailed || !strings.Contains(errs, "demo:/s-1") || !strings.Contains(errs, "ahp-session:/someone-else") {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
}

// TestExecSetupDeadline: a session that never becomes ready ends exec
// after the setup deadline with a message saying so.
func TestExecSetupDeadline(t *testing.T) {
	h := newBendHost(t)
	h.session = "demo:/stuck"
	old := execSetupTimeout
	execSetupTimeout = 300 * time.Millisecond
	t.Cleanup(func() { execSetupTimeout = old })
	h.neverReady = true
	code, _, errs := runIn(t, "", "exec", h.url(), "--session", "demo:/stuck", "hi")
	if code != execFailed || !strings.Contains(errs, "did not make session demo:/stuck ready within") {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
}

// TestExecHostRestartMidTurn: the host goes away mid-turn and comes back
// without the session (a restart). exec keeps what was received, marks
// the reply interrupted and exits 1 naming the cause.
func TestExecHostRestartMidTurn(t *testing.T) {
	h := newBendHost(t)
	h.dieMidTurn = true
	code, out, errs := runIn(t, "", "exec", "--json", h.url(), "--session", "demo:/s-1", "hi")
	evs := ndjson(t, out)
	if code != execFailed || !hasEvent(evs, "text") || !hasEvent(evs, "turn_end", "state", "interrupted") {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errs)
	}
	if !strings.Contains(errs, "interrupted") || !strings.Contains(errs, "restart") {
		t.Fatalf("stderr does not name the cause: %q", errs)
	}
}
