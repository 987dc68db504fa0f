package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
)

func reconnecting(attempt int, next time.Time) connEventMsg {
	return connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{
		Phase: ahpclient.Reconnecting, Attempt: attempt, NextRetry: next, Err: errors.New("connection refused")}}}
}

// The status line counts down to the next reconnect attempt, a tick redraws
// it only while reconnecting, and the reconnect key asks the client to try
// now (only while reconnecting).
func TestReconnectCountdownAndKey(t *testing.T) {
	m, fb := newTestModel(t, 120, 30)
	if m.retryTicking {
		t.Fatal("countdown tick runs while connected")
	}
	m = send(t, m, keyPress("f5"))
	if fb.retried != 0 {
		t.Fatal("f5 while connected called RetryNow")
	}

	m = send(t, m, reconnecting(3, fixedNow.Add(3200*time.Millisecond)))
	v := viewText(m)
	for _, want := range []string{"◌ Reconnecting 3 · next try in 4s: connection refused", "f5 reconnect now"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if !m.retryTicking {
		t.Fatal("no countdown tick while reconnecting")
	}
	gen := m.retryGen

	// A second state while the chain runs does not start another chain.
	m = send(t, m, reconnecting(4, fixedNow.Add(65*time.Second)))
	if m.retryGen != gen {
		t.Fatal("a second countdown chain started")
	}
	if v := viewText(m); !strings.Contains(v, "Reconnecting 4 · next try in 1m05s") {
		t.Errorf("long wait not shown in minutes:\n%s", v)
	}
	nm, cmd := m.Update(retryTickMsg{gen: gen})
	m = nm.(Model)
	if cmd == nil {
		t.Fatal("the countdown tick stopped while still reconnecting")
	}
	if _, cmd := m.Update(retryTickMsg{gen: gen - 1}); cmd != nil {
		t.Fatal("a stale tick chain kept going")
	}

	m = send(t, m, keyPress("f5"))
	if fb.retried != 1 {
		t.Fatalf("f5 while reconnecting: %d RetryNow calls, want 1", fb.retried)
	}
	// (Test notices expire at once: look at the answer's effect directly.)
	if nm, _ := m.Update(retryNowMsg{waiting: true}); !strings.Contains(viewText(nm.(Model)), "reconnecting now") {
		t.Errorf("no feedback for f5:\n%s", viewText(nm.(Model)))
	}

	m = send(t, m, reconnecting(4, fixedNow.Add(-time.Second)))
	if v := viewText(m); !strings.Contains(v, "Reconnecting 4 · trying now") {
		t.Errorf("due attempt not shown as under way:\n%s", v)
	}

	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Connected}}})
	v = viewText(m)
	if !strings.Contains(v, "● Connected") || strings.Contains(v, "next try") || strings.Contains(v, "reconnect now") {
		t.Errorf("connected view still shows the countdown or the key:\n%s", v)
	}
	nm, cmd = m.Update(retryTickMsg{gen: m.retryGen})
	m = nm.(Model)
	if cmd != nil || m.retryTicking {
		t.Fatal("the countdown tick kept running after reconnecting")
	}
	m = send(t, m, keyPress("f5"))
	if fb.retried != 1 {
		t.Fatal("f5 after reconnecting called RetryNow")
	}

	// The next outage starts a fresh chain.
	nm, cmd = m.Update(reconnecting(1, fixedNow.Add(time.Second)))
	m = nm.(Model)
	if !m.retryTicking || m.retryGen == gen || cmd == nil {
		t.Fatal("no countdown tick for the next outage")
	}
}

func TestRetryCountdownText(t *testing.T) {
	st := func(d time.Duration) ahpclient.ConnState {
		return ahpclient.ConnState{Phase: ahpclient.Reconnecting, Attempt: 1, NextRetry: fixedNow.Add(d)}
	}
	cases := []struct {
		s    ahpclient.ConnState
		want string
	}{
		{st(4 * time.Second), "next try in 4s"},
		{st(3001 * time.Millisecond), "next try in 4s"},
		{st(time.Millisecond), "next try in 1s"},
		{st(0), "trying now"},
		{st(125 * time.Second), "next try in 2m05s"},
		{ahpclient.ConnState{Phase: ahpclient.Reconnecting, Attempt: 1}, ""},
		{ahpclient.ConnState{Phase: ahpclient.Connected, NextRetry: fixedNow.Add(time.Second)}, ""},
	}
	for _, c := range cases {
		if got := retryCountdown(c.s, fixedNow); got != c.want {
			t.Errorf("retryCountdown(%v after now) = %q, want %q", c.s.NextRetry.Sub(fixedNow), got, c.want)
		}
	}
}

// TestRefusedAfterConnectedSaysTokenChanged: a host that refuses the
// token it accepted before (it restarted with another one: --new-token)
// fails the client; the status line says what to do first, so that it
// shows on 80 columns, then why, instead of "check the token", and the
// hint line does not promise that what is typed is sent after reconnecting
// (the client gave up). It no longer says serve picks a random token at
// each start (a durable serve keeps its token). A refusal before any
// connection keeps the token advice.
func TestRefusedAfterConnectedSaysTokenChanged(t *testing.T) {
	refused := &ahpclient.AuthError{StatusCode: 401, Tried: []string{`the query parameter "tkn"`}}
	failed := connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Failed, Err: refused}}}
	m, _ := newTestModel(t, 220, 30)
	m = openChat(t, m, chatState(nil, nil))
	m = send(t, m, reconnecting(1, fixedNow.Add(time.Second)))
	m = send(t, m, failed)
	v := viewText(m)
	if !strings.Contains(v, "✗ Failed: attach again with the host's new URL: it refused the token it accepted before (it restarted with another: --new-token") ||
		strings.Contains(v, "random token") ||
		!strings.Contains(v, "disconnected — nothing can be sent") || strings.Contains(v, "held and sent after reconnecting") {
		t.Fatalf("refused after being connected:\n%s", v)
	}
	m, _ = newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, nil))
	m = send(t, m, reconnecting(1, fixedNow.Add(time.Second)))
	m = send(t, m, failed)
	if v := viewText(m); !strings.Contains(v, "✗ Failed: attach again with the host's new URL") {
		t.Fatalf("80 columns do not show what to do:\n%s", v)
	}

	m, _ = newTestModel(t, 220, 30)
	m.conn = ahpclient.ConnState{Phase: ahpclient.Connecting} // never connected
	m = send(t, m, failed)
	if v := viewText(m); strings.Contains(v, "accepted before") || !strings.Contains(v, "HTTP 401") {
		t.Fatalf("refused at the first connection:\n%s", v)
	}
}
