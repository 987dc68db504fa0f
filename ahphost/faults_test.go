package ahphost

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// connDropped reports whether the connection ended without a close frame
// (a read that merely times out is not a drop).
func connDropped(w *wsClient) bool {
	for {
		_, err := w.readMsg(testTimeout)
		if err != nil {
			var ce websocket.CloseError
			return !errors.As(err, &ce) && !errors.Is(err, context.DeadlineExceeded)
		}
	}
}

func TestFaultInjection(t *testing.T) {
	t.Run("DropAfterFrames option", func(t *testing.T) {
		_, u := startHost(t, Options{NoToken: true, Faults: Faults{DropAfterFrames: 2}})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)                             // frame 1
		w.call("ping", map[string]any{"channel": "ahp-root://"}) // frame 2, then dropped
		if !connDropped(w) {
			t.Fatal("connection was closed with a close frame, want an abrupt drop")
		}
	})
	t.Run("DropAll", func(t *testing.T) {
		h, u := startHost(t, Options{NoToken: true})
		a, b := dial(t, u, nil), dial(t, u, nil)
		a.initialize("a", nil, nil)
		b.initialize("b", nil, nil)
		if n := h.Connections(); n != 2 {
			t.Fatalf("Connections() = %d", n)
		}
		h.DropAll()
		if !connDropped(a) || !connDropped(b) {
			t.Fatal("want abrupt drops")
		}
		waitUntil(t, "connections gone", func() bool { return h.Connections() == 0 })
		c := dial(t, u, nil)
		c.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "a", "lastSeenServerSeq": 0, "subscriptions": []string{}})
	})
	t.Run("Outage", func(t *testing.T) {
		h, u := startHost(t, Options{NoToken: true})
		a := dial(t, u, nil)
		a.initialize("a", nil, nil)
		h.Outage(400 * time.Millisecond)
		if !connDropped(a) {
			t.Fatal("want an abrupt drop")
		}
		_, err := tryDial(u, nil)
		if err == nil || !strings.Contains(err.Error(), "503") {
			t.Fatalf("dial during the outage: %v, want 503", err)
		}
		time.Sleep(450 * time.Millisecond)
		b := dial(t, u, nil)
		b.initialize("b", nil, nil)
	})
	t.Run("DropAtServerSeq then replay", func(t *testing.T) {
		h, u := startHost(t, Options{NoToken: true})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)
		chat := w.createSession("ahp-session:/s1")
		readChat(t, w, chat, 0)
		target := h.ServerSeq() + 3
		h.DropAtServerSeq(target)
		w.sendMessage(chat, "t1", "hello", 1)
		var last uint64
		for {
			raw, err := w.readMsg(testTimeout)
			if err != nil {
				break
			}
			if m := decodeWire(t, raw); m.Method == "action" {
				var e envelope
				must(t, json.Unmarshal(m.Params, &e))
				last = e.ServerSeq
			}
		}
		if last != target-1 {
			t.Fatalf("last envelope before the drop %d, want %d", last, target-1)
		}
		w2 := dial(t, u, nil)
		var res reconnectResult
		must(t, json.Unmarshal(w2.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "c1",
			"lastSeenServerSeq": last, "subscriptions": []string{"ahp-session:/s1", chat}}), &res))
		if res.Type != "replay" || len(res.Actions) == 0 || res.Actions[0].ServerSeq != target {
			t.Fatalf("replay type %q with %d actions, first seq %d, want %d", res.Type, len(res.Actions),
				res.Actions[0].ServerSeq, target)
		}
		// The fault is one-shot: the rest of the turn arrives, in the replay
		// or live on the new connection.
		completed := false
		for _, e := range res.Actions {
			completed = completed || e.typ() == "chat/turnComplete"
		}
		if !completed {
			w2.actionOfType(chat, "chat/turnComplete")
		}
	})
	t.Run("GoSilent", func(t *testing.T) {
		h, u := startHost(t, Options{NoToken: true})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)
		h.GoSilent(300 * time.Millisecond)
		start := time.Now()
		// The ping is neither answered nor is the connection closed during
		// the silence; afterwards the same connection continues.
		w.call("ping", map[string]any{"channel": "ahp-root://"})
		if d := time.Since(start); d < 250*time.Millisecond {
			t.Fatalf("ping answered after %v during a 300ms silence", d)
		}
		w.call("ping", map[string]any{"channel": "ahp-root://"})
	})
	t.Run("frame delay", func(t *testing.T) {
		_, u := startHost(t, Options{NoToken: true, Faults: Faults{FrameDelay: 30 * time.Millisecond}})
		w := dial(t, u, nil)
		start := time.Now()
		w.initialize("c1", nil, nil)
		w.call("ping", map[string]any{"channel": "ahp-root://"})
		if d := time.Since(start); d < 60*time.Millisecond {
			t.Fatalf("two frames took %v with a 30ms delay", d)
		}
	})
}

func TestKeepAliveDropsDeadClient(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, KeepAlive: 50 * time.Millisecond})
	// A client that keeps reading answers pings and stays connected; it
	// counts the pings it receives.
	var pings atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	ac, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{
		OnPingReceived: func(context.Context, []byte) bool { pings.Add(1); return true },
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	actx, acancel := context.WithCancel(context.Background())
	alive := &wsClient{t: t, c: ac, ctx: actx, cancel: acancel}
	t.Cleanup(alive.close)
	alive.initialize("alive", nil, nil)
	go func() { _, _ = alive.readMsg(testTimeout) }()
	// A client that never reads cannot answer pings and is dropped.
	dead := dial(t, u, nil)
	dead.initialize("dead", nil, nil)
	waitUntil(t, "dead client dropped", func() bool { return h.Connections() == 1 })
	// The host sends its next ping only once the last one was answered, so
	// three more pings to the live client mean it kept answering after the
	// drop (instead of sleeping 200 ms and hoping pings happened).
	after := pings.Load()
	waitUntil(t, "three more pings to the live client", func() bool { return pings.Load() >= after+3 })
	if n := h.Connections(); n != 1 {
		t.Fatalf("connections %d, want the live client only", n)
	}
}
