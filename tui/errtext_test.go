package tui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/tui/app"
)

func TestErrTextMessageTooLarge(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("ahpclient: subscribe: %w", &ahpclient.MessageTooLargeError{Op: "subscribe", Size: 2_000_000, Limit: 1_048_576}),
			"the host refused: message too large (2,000,000 > 1,048,576 bytes)"},
		{&ahpclient.MessageTooLargeError{Op: "dispatchAction"}, "the host refused: message too large"},
		{fmt.Errorf("dispatch: %w", ahpclient.ErrMessageTooLarge), "not sent: message too large for the host"},
		{errors.New("boom"), "boom"},
		{nil, ""},
	}
	for _, c := range cases {
		if got := app.ErrText(c.err); got != c.want {
			t.Errorf("errText(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1_048_576: "1,048,576", -12345: "-12,345"} {
		if got := app.GroupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// A prompt the host refuses as too large fails with a plain explanation in
// the status line, not the client's internal error text.
func TestTooLargeDispatchNotice(t *testing.T) {
	m, _ := idleChat(t)
	act := &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("huge paste")}
	err := fmt.Errorf("ahpclient: dispatch: %w", &ahpclient.MessageTooLargeError{Op: "dispatchAction", Size: 3_000_000, Limit: 1_048_576})
	entry := ahpclient.OutboxEntry{ClientSeq: 5, Channel: testChat, Action: act, Status: ahpclient.OutboxFailed, Err: err}
	nm, _ := m.Update(connEventMsg{ev: ahpclient.OutboxEvent{Entry: entry}})
	want := "sending the message failed: the host refused: message too large (3,000,000 > 1,048,576 bytes)"
	if got := nm.(Model).notice; got != want {
		t.Fatalf("notice = %q, want %q", got, want)
	}
	nm, _ = m.Update(app.DispatchedMsg{Channel: testChat, Err: err})
	if got := nm.(Model).notice; !strings.HasPrefix(got, "the host refused: message too large (3,000,000") {
		t.Fatalf("dispatch error notice = %q", got)
	}
}

// TestErrorsAreWrittenForPeople: no package prefixes and no library wording
// reach the status line; the full error goes to the log.
func TestErrorsAreWrittenForPeople(t *testing.T) {
	refused := &ahpclient.DialError{URL: "ws://127.0.0.1:1", Err: fmt.Errorf("failed to WebSocket dial: %w", syscall.ECONNREFUSED)}
	cases := []struct {
		err  error
		want string
	}{
		{&ahpclient.DialError{URL: "ws://h", StatusCode: 503, Err: errors.New("failed to WebSocket dial: expected handshake response status code 101 but got 503")},
			"the host is unavailable (HTTP 503)"},
		{refused, "nothing is listening at that address — is the host running?"},
		{&ahpclient.AuthError{StatusCode: 401}, "host refused the connection (HTTP 401): no token was sent; give one with the tkn URL parameter, --token or AHPTUI_TOKEN"},
		{&ahpclient.VersionError{Offered: []string{"1.1.0", "1.0.0"}, Supported: []string{">=0.5.0 <0.6.0"}},
			"no common protocol version: this client offered 1.1.0, 1.0.0, the host supports >=0.5.0 <0.6.0; the host is older than this client: upgrade the host"},
		{fmt.Errorf("ahpclient: subscribe: %w", &ahpwire.RPCError{Code: ahpwire.CodeNotFound, Message: "x"}), "not found on the host"},
		{&ahpwire.RPCError{Code: -32099, Message: "disk full"}, "the host said: disk full"},
		{fmt.Errorf("ahpclient: list: %w", ahpclient.ErrNotConnected), "not connected — try again once reconnected"},
		{&ahpclient.TransportError{Op: "subscribe", Cause: errors.New("EOF")}, "the connection to the host was lost"},
		{&ahpclient.RejectedError{ClientSeq: 3, Channel: "c", Reason: "no such turn"}, "the host rejected it: no such turn"},
		{fmt.Errorf("ahpclient: x: %w", context.DeadlineExceeded), "the host did not answer in time"},
		{errors.New("ahpclient: connect ws://h:1/: websocket: something odd"), "something odd"},
	}
	for _, c := range cases {
		if got := app.ErrText(c.err); got != c.want {
			t.Errorf("errText(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	var logs testkit.SyncBuffer
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, NoticeTTL: 1, FrameInterval: 1, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 20})
	nm, _ := m.Update(app.SessionCreatedMsg{Err: refused})
	if v := viewText(nm.(Model)); !strings.Contains(v, "could not create the session: nothing is listening") || strings.Contains(v, "WebSocket") {
		t.Fatalf("notice:\n%s", v)
	}
	if !strings.Contains(logs.String(), "failed to WebSocket dial") {
		t.Fatalf("the detail is not in the log:\n%s", logs.String())
	}
	if l := logs.String(); strings.Contains(l, "session failed") || !strings.Contains(l, "could not create the session") {
		t.Fatalf("log wording (issue 24, minor):\n%s", l)
	}
}
