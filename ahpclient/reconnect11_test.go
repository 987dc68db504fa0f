package ahpclient

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestReconnectShapeFollowsVersion: after initialize negotiated 1.1.0 the
// client reconnects with per-channel cursors and applies a per-channel
// result (a chat reported missing is lost, the root replays); with a
// 1.0.0 host it sends the 1.0 shape (one lastSeenServerSeq, URIs).
func TestReconnectShapeFollowsVersion(t *testing.T) {
	const chat = "ahp-chat:/c1"
	for _, v := range []string{"1.1.0", "1.0.0"} {
		t.Run(v, func(t *testing.T) {
			h := newStrictHost(t, func(n int) string {
				if v == "1.1.0" {
					return `{"channels":[{"kind":"replay","channel":"ahp-root://","actions":[]},{"kind":"missing","channel":"` + chat + `"}]}`
				}
				return `{"type":"replay","actions":[],"missing":["` + chat + `"]}`
			})
			h.version = v
			o := testOptions(t, h.url())
			o.SessionsLimit = -1
			c, a := startClient(t, o)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if _, err := c.Subscribe(ctx, chat, nil); err != nil {
				t.Fatal(err)
			}
			h.kill()
			a.waitFor("lost", 15*time.Second, func(evs []Event) bool {
				return hasEvent(evs, func(e ChannelLostEvent) bool { return e.Channel == chat }) &&
					hasEvent(evs, func(e ConnStateEvent) bool { return e.State.Phase == Connected && e.State.Recovery != RecoveryNone })
			})
			h.mu.Lock()
			raw := h.reconnectParams[0]
			h.mu.Unlock()
			var p ahpwire.ReconnectParams
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			var generic map[string]json.RawMessage
			_ = json.Unmarshal(raw, &generic)
			_, hasLast := generic["lastSeenServerSeq"]
			switch v {
			case "1.1.0":
				if len(p.Cursors) != 2 || p.Cursors[0].Channel != ahpwire.RootURI || p.Cursors[1].Channel != chat || hasLast {
					t.Fatalf("1.1 reconnect params %s", raw)
				}
			default:
				if p.Cursors != nil || len(p.Subscriptions) != 2 || !hasLast {
					t.Fatalf("1.0 reconnect params %s", raw)
				}
			}
		})
	}
}

// TestNeverOffersExperimentalCapabilities: initialize offers 1.1.0 and the
// steering list, and never flowControl or tcpConnections.
func TestNeverOffersExperimentalCapabilities(t *testing.T) {
	var got json.RawMessage
	h := newScriptedHost(t, nil)
	h.script = func(n int, m ahpwire.Message, _ *websocket.Conn) bool {
		if m.Method == ahpwire.MethodInitialize {
			got = append(json.RawMessage(nil), m.Params...)
		}
		return false
	}
	c, err := New(testOptions(t, h.url()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var p struct {
		ProtocolVersions []string                   `json:"protocolVersions"`
		Capabilities     map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(got, &p); err != nil {
		t.Fatal(err)
	}
	if p.ProtocolVersions[0] != "1.1.0" || p.Capabilities["steeringMessages"] == nil {
		t.Fatalf("initialize params %s", got)
	}
	for _, k := range []string{"flowControl", "tcpConnections"} {
		if _, ok := p.Capabilities[k]; ok {
			t.Fatalf("offered experimental %s: %s", k, got)
		}
	}
}

// TestEmbeddedHostSpeaks11: the embedded host negotiates 1.1.0 with this
// client, and a dropped link recovers through per-channel cursors.
func TestEmbeddedHostSpeaks11(t *testing.T) {
	h, u := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, u)
	c, a := startClient(t, o)
	if v := c.State().ProtocolVersion; v != "1.1.0" {
		t.Fatalf("negotiated %q, want 1.1.0", v)
	}
	h.DropAll()
	a.waitFor("replayed", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool { return e.State.Phase == Connected && e.State.Recovery == RecoveryReplay })
	})
}
