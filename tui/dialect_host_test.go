package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/picker"
)

// A VS Code-dialect host publishes <provider>:/<id> URIs (issue 21).
const (
	dlSession = "demo:/s-1"
	dlChat    = "demo:/s-1/chat"
)

var dlSnapshots = map[string]string{
	dlSession: `{"provider":"demo","title":"Dialect","status":1,"lifecycle":"ready","defaultChat":"` + dlChat +
		`","chats":[{"resource":"` + dlChat + `","title":"main","status":1,"modifiedAt":"2026-01-01T00:00:00.000Z"}],"activeClients":[],` +
		`"artifacts":[{"id":"a1","kind":"file","title":"Plan","uri":"demo:/s-1/plan.md","relations":[{"kind":"produced"}]},` +
		`{"id":"a2","kind":"hologram","label":"Future thing","depth":3}]}`,
	dlChat: `{"resource":"` + dlChat + `","title":"Dialect","status":1,"modifiedAt":"2026-01-01T00:00:00.000Z","turns":[` +
		`{"id":"t1","startedAt":"2026-01-01T00:00:00.000Z","duration":5,"state":"complete","message":{"text":"hi","origin":{"kind":"user"}},` +
		`"responseParts":[{"kind":"markdown","id":"p1","content":"hello from the dialect host"}]}]}`,
}

// dialectHost serves dlSnapshots in raw AHP 1.0 frames; with wrong, every
// subscribe is answered with a snapshot of another resource.
func dialectHost(t *testing.T, wrong bool) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				ID     *uint64 `json:"id"`
				Method string  `json:"method"`
				Params struct {
					Channel string `json:"channel"`
				} `json:"params"`
			}
			if json.Unmarshal(b, &m) != nil || m.ID == nil {
				continue
			}
			result := `{}`
			switch m.Method {
			case "initialize":
				result = `{"protocolVersion":"1.0.0","serverSeq":0,"snapshots":[]}`
			case "resourceRead":
				result = `{"data":"the plan, line one\nline two","encoding":"utf-8","contentType":"text/markdown"}`
			case "listSessions":
				result = `{"items":[{"resource":"` + dlSession + `","provider":"demo","title":"Dialect","status":1,"createdAt":"2026-01-01T00:00:00.000Z","modifiedAt":"2026-01-01T00:00:00.000Z"}]}`
			case "subscribe":
				state, ok := dlSnapshots[m.Params.Channel]
				if !ok {
					result = ""
					_ = ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32008,"message":"not found"}}`, *m.ID)))
					continue
				}
				res := m.Params.Channel
				if wrong {
					res = "demo:/someone-else"
				}
				result = fmt.Sprintf(`{"snapshot":{"resource":%q,"state":%s,"fromSeq":0}}`, res, state)
			}
			if ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, *m.ID, result))) != nil {
				return
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// dialectRig is a real client and the TUI on a dialect host, fed events
// as the event pump does (eventMsg decodes chat snapshots).
type dialectRig struct {
	t   *testing.T
	ctx context.Context
	c   *ahpclient.Client
	b   liveBackend
	m   Model
}

func newDialectRig(t *testing.T, wrong bool) *dialectRig {
	c, err := ahpclient.New(ahpclient.Options{URL: dialectHost(t, wrong), StateDir: t.TempDir(), ExplicitAck: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r := &dialectRig{t: t, ctx: ctx, c: c, b: liveBackend{c}}
	r.m = newModel(Options{Backend: r.b, Host: "dialect", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Hour})
	r.m = send(t, r.m, teaSize(100, 30))
	return r
}

// pump feeds events until cond holds.
func (r *dialectRig) pump(what string, cond func(Model) bool) {
	r.t.Helper()
	for !cond(r.m) {
		ev, err := r.c.Next(r.ctx)
		if err != nil {
			r.t.Fatalf("waiting for %s: %v\n%s", what, err, viewText(r.m))
		}
		r.m = send(r.t, r.m, eventMsg(ev, r.b))
		if e, ok := ev.(ahpclient.EnvelopeEvent); ok {
			e.Ack()
		}
	}
}

// TestDialectSessionOpens: a session whose URI is not ahp-session:/… opens
// like any other (routing by what was subscribed, not by scheme), and its
// chat's transcript is shown.
func TestDialectSessionOpens(t *testing.T) {
	r := newDialectRig(t, false)
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: dlSession})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	r.pump("transcript", func(m Model) bool { return strings.Contains(viewText(m), "hello from the dialect host") })
}

// TestWrongSnapshotSaysSo: a host answering the subscribe with a snapshot
// of another resource does not leave "opening…" forever: the screen says
// what cannot be handled.
func TestWrongSnapshotSaysSo(t *testing.T) {
	r := newDialectRig(t, true)
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: dlSession})
	r.pump("notice", func(m Model) bool {
		return strings.Contains(viewText(m), "cannot open demo:/s-1") && m.open == nil
	})
}

// TestArtifactsListedAndOpened (1.1): F8 lists the session's artifacts,
// an unknown kind included, and Enter opens one through resourceRead.
func TestArtifactsListedAndOpened(t *testing.T) {
	r := newDialectRig(t, false)
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: dlSession})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	r.m = send(t, r.m, keyPress("f8"))
	v := viewText(r.m)
	if !strings.Contains(v, "Session artifacts") || !strings.Contains(v, "Plan (file)") || !strings.Contains(v, "Future thing (hologram)") {
		t.Fatalf("artifacts list:\n%s", v)
	}
	r.m = send(t, r.m, keyPress("enter"))
	if v := viewText(r.m); !strings.Contains(v, "the plan, line one") || !strings.Contains(v, "line two") {
		t.Fatalf("opened artifact:\n%s", v)
	}
}
