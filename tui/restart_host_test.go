package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/picker"
)

// restartingHost serves a chat whose turn is streaming; right after the
// chat's snapshot it "restarts": the connection drops, and the next
// connection is a fresh host that refuses reconnect (unknown client) and
// has the chat back from disk without the in-flight turn.
func restartingHost(t *testing.T) string {
	var conns atomic.Int32
	activeTurn := `,"activeTurn":{"id":"t1","startedAt":"2026-01-01T00:00:00.000Z","message":{"text":"hi","origin":{"kind":"user"}},` +
		`"responseParts":[{"kind":"markdown","id":"p1","content":"partial reply"}]}`
	chatState := func(streaming bool) string {
		s := `{"resource":"ahp-chat:/r1","title":"R","status":8,"modifiedAt":"2026-01-01T00:00:00.000Z","turns":[]`
		if streaming {
			s += activeTurn
		}
		return s + "}"
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		first := conns.Add(1) == 1
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
			reply := func(result string) bool {
				return ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, *m.ID, result))) == nil
			}
			switch {
			case m.Method == "reconnect":
				_ = ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"unknown clientId"}}`, *m.ID)))
			case m.Method == "initialize":
				reply(`{"protocolVersion":"1.0.0","serverSeq":0,"snapshots":[]}`)
			case m.Method == "subscribe" && m.Params.Channel == "ahp-session:/r1":
				reply(`{"snapshot":{"resource":"ahp-session:/r1","fromSeq":0,"state":{"provider":"demo","title":"R","status":8,"lifecycle":"ready","defaultChat":"ahp-chat:/r1",` +
					`"chats":[{"resource":"ahp-chat:/r1","title":"R","status":8,"modifiedAt":"2026-01-01T00:00:00.000Z"}],"activeClients":[]}}}`)
			case m.Method == "subscribe" && m.Params.Channel == "ahp-chat:/r1":
				reply(`{"snapshot":{"resource":"ahp-chat:/r1","fromSeq":0,"state":` + chatState(first) + `}}`)
				if first {
					time.Sleep(50 * time.Millisecond) // let the snapshot reach the client
					return                            // the host process ends
				}
			default:
				reply(`{}`)
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// TestHostRestartMidTurnMarksReplyInterrupted: after the host restarts
// mid-turn, the partial reply stays on screen, marked interrupted.
func TestHostRestartMidTurnMarksReplyInterrupted(t *testing.T) {
	c, err := ahpclient.New(ahpclient.Options{URL: restartingHost(t), StateDir: t.TempDir(), ExplicitAck: true,
		Backoff: ahpclient.BackoffPolicy{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}})
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
	r.m = newModel(Options{Backend: r.b, Host: "restarting", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Hour})
	r.m = send(t, r.m, teaSize(100, 30))
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/r1"})
	r.pump("streaming reply", func(m Model) bool { return m.chat != nil && m.chat.Ready && m.chat.State.Current != nil })
	r.pump("interrupted reply", func(m Model) bool {
		v := viewText(m)
		return m.chat.State.Current == nil && strings.Contains(v, "partial reply") && strings.Contains(v, "interrupted")
	})
}
