package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// connectingModel is a model whose Connect blocks until the test answers
// with a connectDoneMsg; the clock is the test's.
func connectingModel(t *testing.T, now *time.Time) (Model, *fakeBackend) {
	t.Helper()
	fb := &fakeBackend{sessions: testSessions()}
	m := newModel(Options{Backend: fb, Host: "127.0.0.1:9", Now: func() time.Time { return *now },
		URL:       "ws://alice:hunter2@127.0.0.1:9/ahp?tkn=s3cr3t-token&x=1",
		Connect:   func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
		NoticeTTL: time.Hour, FrameInterval: time.Nanosecond})
	return send(t, m, teaSize(80, 24)), fb
}

// TestConnectingScreen: while the host does not answer at start-up the
// screen says where it connects (masked), for how long, and how to quit —
// never a blank screen.
func TestConnectingScreen(t *testing.T) {
	now := fixedNow
	m, _ := connectingModel(t, &now)
	if m.Init() == nil {
		t.Fatal("Init does not start connecting")
	}
	v := checkFrame(t, m, 80, 24)
	for _, want := range []string{"Connecting to ws://alice:***@127.0.0.1:9/ahp?tkn=***&x=1", "0s", "ctrl+c quits", "◌ Connecting"} {
		if !strings.Contains(v, want) {
			t.Errorf("connecting screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "s3cr3t") || strings.Contains(v, "hunter2") {
		t.Fatalf("a secret is on screen:\n%s", v)
	}
	now = now.Add(15 * time.Second)
	nm, cmd := m.Update(connectTickMsg{})
	m = nm.(Model)
	if cmd == nil || !strings.Contains(viewText(m), "15s") {
		t.Fatalf("elapsed time not updated (cmd %v):\n%s", cmd != nil, viewText(m))
	}
	// Keys other than quit do nothing yet; quit quits.
	m = typeText(t, m, "abc")
	if m.picker.Filter.Value() != "" {
		t.Fatal("keys typed while connecting went to the picker")
	}
	if _, cmd := m.Update(keyPress("ctrl+c")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("ctrl+c does not quit while connecting")
	}
}

func TestConnectingEnds(t *testing.T) {
	now := fixedNow
	m, _ := connectingModel(t, &now)
	ok := send(t, m, connectDoneMsg{})
	ok = send(t, ok, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	if v := viewText(ok); strings.Contains(v, "Connecting to") || !strings.Contains(v, "● Connected") || !strings.Contains(v, "Fix the flaky") {
		t.Fatalf("after connecting:\n%s", v)
	}
	failure := errors.New("dial: connection refused")
	nm, cmd := m.Update(connectDoneMsg{err: failure})
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("a failed connect does not quit")
	}
	if err := nm.(Model).ConnectionFailure(); !errors.Is(err, failure) {
		t.Fatalf("ConnectionFailure = %v", err)
	}
}

func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"ws://127.0.0.1:8080/?tkn=abc":             "ws://127.0.0.1:8080/?tkn=***",
		"wss://u:p@h/x?token=abc&a=b":              "wss://u:***@h/x?token=***&a=b",
		"ws://h/\x1b]0;x\x07":                      "(invalid URL)",
		"ws://h/?api_key=1&tkn=2&TKN=3&keep=plain": "ws://h/?api_key=***&tkn=***&TKN=***&keep=plain",
	} {
		if got := maskURL(in); got != want {
			t.Errorf("maskURL(%q) = %q, want %q", in, got, want)
		}
	}
}
