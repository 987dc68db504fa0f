package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
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
		if got := errText(c.err); got != c.want {
			t.Errorf("errText(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1_048_576: "1,048,576", -12345: "-12,345"} {
		if got := groupDigits(n); got != want {
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
	want := "chat/turnStarted failed: the host refused: message too large (3,000,000 > 1,048,576 bytes)"
	if got := nm.(Model).notice; got != want {
		t.Fatalf("notice = %q, want %q", got, want)
	}
	nm, _ = m.Update(dispatchedMsg{channel: testChat, err: err})
	if got := nm.(Model).notice; !strings.HasPrefix(got, "the host refused: message too large (3,000,000") {
		t.Fatalf("dispatch error notice = %q", got)
	}
}
