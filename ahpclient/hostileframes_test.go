package ahpclient

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// hostileOptions are testOptions with a debug log into logs and no
// automatic listSessions.
func hostileOptions(t *testing.T, url string, logs *testkit.SyncBuffer) Options {
	o := testOptions(t, url)
	o.SessionsLimit = -1
	o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return o
}

// A standard JSON-RPC error with "id": null (what a host sends for
// unparsable input) answers nothing this client sent: it is logged, and
// the link stays up (issue 11 item 7).
func TestNullIDErrorResponseIsLoggedNotFatal(t *testing.T) {
	h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
		if m.Method != ahpwire.MethodPing {
			return false
		}
		ctx := context.Background()
		_ = writeRaw(ctx, ws, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
		_ = writeJSON(ctx, ws, defaultAnswer(m))
		return true
	})
	var logs testkit.SyncBuffer
	c, a := startClient(t, hostileOptions(t, h.url(), &logs))
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := c.Ping(ctx)
		cancel()
		if err != nil {
			t.Fatalf("ping %d after an id:null error: %v", i, err)
		}
	}
	if n := countState(a.snapshot(), Reconnecting); n != 0 || h.conns.Load() != 1 {
		t.Fatalf("link dropped (%d reconnects, %d connections) for an id:null error", n, h.conns.Load())
	}
	if l := logs.String(); !strings.Contains(l, "-32700") || !strings.Contains(l, "Parse error") {
		t.Fatalf("id:null error not logged:\n%s", l)
	}
}

// A panic while handling a frame never reaches the application: it becomes
// a connection error, is logged, and the client reconnects.
func TestPanicOnFrameBecomesReconnect(t *testing.T) {
	h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
		if m.Method != ahpwire.MethodPing || n != 1 {
			return false
		}
		_ = writeRaw(context.Background(), ws, `{"jsonrpc":"2.0","method":"test/boom","params":{}}`)
		return true
	})
	var logs testkit.SyncBuffer
	c, err := New(hostileOptions(t, h.url(), &logs))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	c.cfg.frameHook = func(b []byte) {
		if bytes.Contains(b, []byte("test/boom")) {
			panic("boom from a hostile frame")
		}
	}
	a := consumeApp(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(ctx); !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("ping on the panicking link = %v, want a lost connection", err)
	}
	evs := a.waitFor("reconnected", 10*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	var cause error
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Reconnecting {
			cause = s.State.Err
			break
		}
	}
	var pe *ProtocolError
	if !errors.As(cause, &pe) || !strings.Contains(cause.Error(), "panic") {
		t.Fatalf("reconnect cause = %v, want a *ProtocolError about the panic", cause)
	}
	if !strings.Contains(logs.String(), "boom from a hostile frame") {
		t.Fatalf("panic not logged:\n%s", logs.String())
	}
	if countState(evs, Failed) != 0 {
		t.Fatal("client failed after a recovered panic")
	}
}

// An undecodable envelope (no channel, no action) advances no sequence
// number, neither in a reconnect replay nor live: a hostile serverSeq
// 999999 must not become lastSeenServerSeq (issue 11 item 8).
func TestUndecodableEnvelopeDoesNotAdvanceSeq(t *testing.T) {
	h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
		ctx := context.Background()
		switch {
		case m.Method == ahpwire.MethodPing && n == 1:
			_ = ws.CloseNow() // drop the link: the client reconnects
			return true
		case m.Method == ahpwire.MethodReconnect:
			_ = writeRaw(ctx, ws, `{"jsonrpc":"2.0","id":`+itoa(int(*m.ID))+`,"result":{"type":"replay","actions":[`+
				`{"channel":"`+hostileChat+`","serverSeq":1,"action":`+deltaAction("one")+`},`+
				`{"serverSeq":999999,"action":null},`+
				`{"channel":"`+hostileChat+`","serverSeq":999998}]}}`)
			return true
		case m.Method == ahpwire.MethodPing && n == 2:
			_ = writeRaw(ctx, ws, `{"jsonrpc":"2.0","method":"action","params":{"serverSeq":888888,"action":`+deltaAction("x")+`}}`)
			_ = writeRaw(ctx, ws, `{"jsonrpc":"2.0","method":"action","params":{"channel":"`+hostileChat+`","serverSeq":777777}}`)
			_ = writeJSON(ctx, ws, defaultAnswer(m))
			return true
		}
		return false
	})
	var logs testkit.SyncBuffer
	c, a := startClient(t, hostileOptions(t, h.url(), &logs))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Subscribe(ctx, hostileChat, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(ctx); !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("ping on the dropped link = %v", err)
	}
	a.waitFor("replayed envelope", 10*time.Second, func(evs []Event) bool {
		for _, e := range evs {
			if en, ok := e.(EnvelopeEvent); ok && en.Envelope.ServerSeq == 1 {
				return true
			}
		}
		return false
	})
	retryWithin(t, "ping", 2*time.Second, 10*time.Second, func(ctx context.Context) error { return c.Ping(ctx) })
	// The consumer acknowledges envelope 1 by asking for the next event;
	// give it a moment, then nothing beyond 1 may count as seen.
	deadline := time.Now().Add(2 * time.Second)
	for c.LastSeenServerSeq() < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := c.LastSeenServerSeq(); got != 1 {
		t.Fatalf("lastSeenServerSeq = %d after undecodable envelopes, want 1", got)
	}
	for _, e := range a.snapshot() {
		if en, ok := e.(EnvelopeEvent); ok && en.Envelope.ServerSeq != 1 {
			t.Errorf("delivered undecodable envelope #%d", en.Envelope.ServerSeq)
		}
	}
}

// A host must pick one of the offered protocol versions: an answer with
// another one is refused, naming both (issue 11 item 19).
func TestUnofferedProtocolVersionIsRefused(t *testing.T) {
	h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
		if m.Method != ahpwire.MethodInitialize {
			return false
		}
		res, _ := ahpwire.NewResult(*m.ID, ahpwire.InitializeResult{ProtocolVersion: "0.3.0"})
		_ = writeJSON(context.Background(), ws, res)
		return true
	})
	var logs testkit.SyncBuffer
	c, err := startResult(t, hostileOptions(t, h.url(), &logs))
	var ve *VersionError
	if !errors.As(err, &ve) {
		t.Fatalf("Start with a host answering 0.3.0 = %v, want *VersionError", err)
	}
	msg := err.Error()
	for _, v := range append([]string{"0.3.0"}, ProtocolVersions...) {
		if !strings.Contains(msg, v) {
			t.Errorf("error %q does not name %s", msg, v)
		}
	}
	if st := c.State(); st.Phase != Failed {
		t.Fatalf("state = %v, want Failed", st)
	}
}

// A -32005 answer without data still gives a clear VersionError that
// names the offered versions and carries the host's message, with a token
// the host reflects masked.
func TestUnsupportedVersionWithoutData(t *testing.T) {
	for name, data := range map[string]string{"absent": "", "null": `,"data":null`, "junk": `,"data":"1.0"`} {
		t.Run(name, func(t *testing.T) {
			h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
				if m.Method != ahpwire.MethodInitialize {
					return false
				}
				_ = writeRaw(context.Background(), ws, `{"jsonrpc":"2.0","id":`+itoa(int(*m.ID))+
					`,"error":{"code":-32005,"message":"speaks only v7; you sent `+hostileToken+`"`+data+`}}`)
				return true
			})
			var logs testkit.SyncBuffer
			o := hostileOptions(t, h.url(), &logs)
			o.Token = hostileToken
			_, err := startResult(t, o)
			var ve *VersionError
			if errors.As(err, &ve) && strings.Contains(ve.Message, hostileToken) {
				t.Errorf("token in VersionError.Message: %q", ve.Message)
			}
			if err != nil && strings.Contains(err.Error(), hostileToken) {
				t.Errorf("token in error: %v", err)
			}
			if !errors.Is(err, ErrUnsupportedVersion) {
				t.Fatalf("Start = %v, want ErrUnsupportedVersion", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "speaks only v7") || !strings.Contains(msg, strings.Join(ProtocolVersions, ", ")) {
				t.Fatalf("error %q lacks the host's message or the offered versions", msg)
			}
		})
	}
}

// A host that drops a slow consumer closes with CloseSlowConsumer; the
// client reconnects and never gives up (issue 11 item 4, client half).
func TestSlowConsumerCloseReconnects(t *testing.T) {
	h := newScriptedHost(t, func(n int, m ahpwire.Message, ws *websocket.Conn) bool {
		if m.Method != ahpwire.MethodPing || n > 2 {
			return false
		}
		_ = ws.Close(CloseSlowConsumer, "slow consumer")
		return true
	})
	var logs testkit.SyncBuffer
	o := hostileOptions(t, h.url(), &logs)
	o.Backoff.MaxAttempts = 1 // a Failed reason would show at once
	c, a := startClient(t, o)
	retryWithin(t, "ping", 2*time.Second, 20*time.Second, func(ctx context.Context) error { return c.Ping(ctx) })
	evs := a.snapshot()
	var causes []error
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Reconnecting {
			causes = append(causes, s.State.Err)
		}
	}
	if len(causes) < 2 || countState(evs, Failed) != 0 {
		t.Fatalf("want two reconnects and no failure: %s", describeTail(evs, 10))
	}
	for _, err := range causes {
		if !errors.Is(err, ErrSlowConsumer) {
			t.Fatalf("reconnect cause %v does not match ErrSlowConsumer", err)
		}
	}
}

// coder/websocket v1.8.15 returns an unfinished fragmented message as
// complete when the peer half-closes after its first fragment. A
// session/titleChanged cut off that way must not be applied: the link is
// treated as lost and the client reconnects (issue 11 item 9). Both places
// where the library takes the EOF for the end of the message are covered:
// before the next fragment's header, and after the final fragment's header
// but before its payload. A message completed just before the half-close
// is applied (the guard does not discard whole messages).
func TestHalfCloseMidMessageIsNotApplied(t *testing.T) {
	const session = "ahp-session:/s1"
	// A complete JSON text, so that only the framing says it is unfinished.
	frag := []byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"` + session +
		`","serverSeq":5,"action":{"type":"session/titleChanged","title":"pwned"}}}`)
	cases := map[string]struct {
		cut         func(rc *rawConn) error
		wantApplied bool
	}{
		"after the first fragment": {cut: func(rc *rawConn) error {
			return rc.writeFrame(false, 0x1, frag)
		}},
		"after the final fragment's header": {cut: func(rc *rawConn) error {
			if err := rc.writeFrame(false, 0x1, frag); err != nil {
				return err
			}
			_, err := rc.c.Write([]byte{0x80, 10}) // fin continuation of 10 bytes, none sent
			return err
		}},
		"after the complete message (control)": {cut: func(rc *rawConn) error {
			if err := rc.writeFrame(false, 0x1, frag); err != nil {
				return err
			}
			return rc.writeFrame(true, 0x0, []byte("  "))
		}, wantApplied: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newRawPeer(t)
			var logs testkit.SyncBuffer
			c, err := New(hostileOptions(t, p.url(), &logs))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close() })
			a := consumeApp(t, c)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			first := make(chan error, 1)
			go func() {
				rc := <-p.conns
				defer rc.c.Close()
				m, err := rc.readRequest() // initialize
				if err == nil {
					err = rc.answer(m)
				}
				if err == nil {
					m, err = rc.readRequest() // subscribe
				}
				if err == nil {
					err = rc.answer(m)
				}
				if err == nil {
					err = tc.cut(rc)
				}
				if err == nil {
					err = rc.c.CloseWrite()
				}
				first <- err
				_, _ = drainRaw(rc)
				if next, ok := <-p.conns; ok {
					next.serveDefault()
				}
			}()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Subscribe(ctx, session, nil); err != nil {
				t.Fatal(err)
			}
			if err := <-first; err != nil {
				t.Fatalf("raw peer: %v", err)
			}
			evs := a.waitFor("reconnected", 10*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
			applied := false
			for _, e := range evs {
				if en, ok := e.(EnvelopeEvent); ok {
					applied = true
					if !tc.wantApplied {
						t.Fatalf("applied an unfinished message: %s", describe(en))
					}
				}
			}
			if tc.wantApplied != applied {
				t.Fatalf("complete message applied = %v, want %v: %s", applied, tc.wantApplied, describeTail(evs, 8))
			}
			if got := c.LastSeenServerSeq(); !tc.wantApplied && got != 0 {
				t.Fatalf("lastSeenServerSeq = %d after an unfinished message, want 0", got)
			}
		})
	}
}

// drainRaw reads from rc until its connection ends.
func drainRaw(rc *rawConn) (int, error) {
	n := 0
	for {
		if _, err := rc.readMessage(); err != nil {
			return n, err
		}
		n++
	}
}
