package ahpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
)

// scriptedHost is an AHP peer over a real loopback WebSocket whose answers
// a test scripts per request; requests the script does not handle get the
// default answer of a well-behaved host (initialize 1.0.0 at serverSeq 0,
// an empty replay for reconnect, a chat snapshot for subscribe, a null
// result otherwise).
type scriptedHost struct {
	srv   *httptest.Server
	conns atomic.Int32
	// script, when set, handles request m on connection n (1-based) and
	// reports whether it did; it may write anything on ws, or close it.
	script func(n int, m ahpwire.Message, ws *websocket.Conn) bool
}

func newScriptedHost(t testing.TB, script func(n int, m ahpwire.Message, ws *websocket.Conn) bool) *scriptedHost {
	h := &scriptedHost{script: script}
	h.srv = serveWS(t, h.serve)
	return h
}

func (h *scriptedHost) url() string { return wsURL(h.srv) }

func (h *scriptedHost) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	n := int(h.conns.Add(1))
	ctx := r.Context()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil || !m.IsRequest() {
			continue
		}
		if h.script != nil && h.script(n, m, ws) {
			continue
		}
		if writeJSON(ctx, ws, defaultAnswer(m)) != nil {
			return
		}
	}
}

// defaultAnswer is a well-behaved host's answer to request m.
func defaultAnswer(m ahpwire.Message) *ahpwire.Message {
	id := *m.ID
	var res any
	switch m.Method {
	case ahpwire.MethodInitialize:
		res = ahpwire.InitializeResult{ProtocolVersion: "1.0.0", ServerSeq: 0}
	case ahpwire.MethodReconnect:
		res = ahpwire.ReconnectResult{Type: ahpwire.ReconnectReplay, Actions: []ahpwire.ActionEnvelope{}}
	case ahpwire.MethodSubscribe:
		var p ahpwire.SubscribeParams
		if json.Unmarshal(m.Params, &p) == nil {
			snap, err := ahpwire.NewSnapshot(p.Channel, ahpwire.ChatState{Resource: p.Channel, Title: "x"}, 0)
			if err == nil {
				res = ahpwire.SubscribeResult{Snapshot: &snap}
			}
		}
	}
	out, err := ahpwire.NewResult(id, res)
	if err != nil {
		return ahpwire.NewError(id, ahpwire.CodeInternalError, err.Error(), nil)
	}
	return out
}

// writeJSON writes v as one text message.
func writeJSON(ctx context.Context, ws *websocket.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return ws.Write(ctx, websocket.MessageText, b)
}

// writeRaw writes b as one text message.
func writeRaw(ctx context.Context, ws *websocket.Conn, b string) error {
	return ws.Write(ctx, websocket.MessageText, []byte(b))
}
