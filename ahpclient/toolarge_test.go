package ahpclient

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

func TestAsMessageTooLarge(t *testing.T) {
	host := rpcFailure("subscribe", &ahpwire.RPCError{Code: ahpwire.CodeMessageTooLarge, Message: "too large",
		Data: []byte(`{"size":2000000,"limit":1048576}`)})
	cases := []struct {
		name string
		err  error
		want TooLarge
		ok   bool
	}{
		{"host -32050", fmt.Errorf("open chat: %w", host), TooLarge{Op: "subscribe", Size: 2000000, Limit: 1048576, ByHost: true}, true},
		{"not negotiated", fmt.Errorf("dispatch: %w", &segment.NotNegotiatedError{Size: 9, Limit: 4}), TooLarge{Size: 9, Limit: 4}, true},
		{"over maxIncoming", &segment.MessageTooLargeError{Size: 7, Limit: 5}, TooLarge{Size: 7, Limit: 5}, true},
		{"bare sentinel", ErrMessageTooLarge, TooLarge{}, true},
		{"other", errors.New("boom"), TooLarge{}, false},
		{"nil", nil, TooLarge{}, false},
	}
	for _, c := range cases {
		got, ok := AsMessageTooLarge(c.err)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: AsMessageTooLarge = %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
