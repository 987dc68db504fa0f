package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
)

// TestStatusSaysHostNotResponding: while connected, an overdue host shows
// "host not responding for Ns" in place of "● Connected", and Connected
// again once it answers; a reconnect clears it.
func TestStatusSaysHostNotResponding(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Connected}}})
	m = send(t, m, stallTickMsg{d: 3 * time.Second, b: fb})
	if l := statusLine(m); !strings.Contains(l, "host not responding for 3s") || strings.Contains(l, "Connected") {
		t.Fatalf("status line while the host is silent: %q", l)
	}
	m = send(t, m, stallTickMsg{d: 0, b: fb})
	if l := statusLine(m); !strings.Contains(l, "● Connected") || strings.Contains(l, "not responding") {
		t.Fatalf("status line once the host answers: %q", l)
	}
	m = send(t, m, stallTickMsg{d: 7 * time.Second, b: fb})
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Reconnecting, Attempt: 1}}})
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Connected}}})
	if l := statusLine(m); strings.Contains(l, "not responding") {
		t.Fatalf("stale report after a reconnect: %q", l)
	}
	// A reading of another (watched) host's backend is not this host's.
	m = send(t, m, stallTickMsg{d: 9 * time.Second, b: &fakeBackend{}})
	if l := statusLine(m); strings.Contains(l, "not responding") {
		t.Fatalf("another backend's reading shown: %q", l)
	}
}
