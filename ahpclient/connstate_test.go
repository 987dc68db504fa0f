package ahpclient

import (
	"errors"
	"testing"
	"time"
)

func TestConnStateString(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 678e6, time.FixedZone("X", 3600))
	cases := []struct {
		s    ConnState
		want string
	}{
		{ConnState{Phase: Reconnecting, Attempt: 3, NextRetry: at, Err: errors.New("read: EOF")},
			"reconnecting (attempt 3, next retry 2026-11-22T02:04:05.678Z): read: EOF"},
		{ConnState{Phase: Reconnecting, Attempt: 1, NextRetry: at}, "reconnecting (attempt 1, next retry 2026-11-22T02:04:05.678Z)"},
		{ConnState{Phase: Reconnecting, Attempt: 2}, "reconnecting (attempt 2)"},
		{ConnState{Phase: Failed, Err: errors.New("unauthorized")}, "failed: unauthorized"},
		{ConnState{Phase: Connected, ProtocolVersion: "0.6"}, "connected (AHP 0.6)"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}
