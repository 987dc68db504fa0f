package app

import (
	"fmt"
	"strconv"

	"github.com/ahptui/ahptui/ahpclient"
)

// ErrText is the user-facing text of an error from the client, written for
// people: no package prefixes, no library wording (the full error goes to
// the log, see Model.errNotice). A "message too large" outcome
// (ahpclient.ErrMessageTooLarge) is put plainly, with the sizes when known:
// "the host refused: message too large (2,000,000 > 1,048,576 bytes)";
// other errors are put by humanError.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	tl, ok := ahpclient.AsMessageTooLarge(err)
	if !ok {
		return humanError(err)
	}
	s := "not sent: message too large for the host"
	if tl.ByHost {
		s = "the host refused: message too large"
	}
	if tl.Size > 0 && tl.Limit > 0 {
		s += fmt.Sprintf(" (%s > %s bytes)", GroupDigits(tl.Size), GroupDigits(tl.Limit))
	} else if tl.Limit > 0 {
		s += fmt.Sprintf(" (limit %s bytes)", GroupDigits(tl.Limit))
	}
	return s
}

// GroupDigits renders n with thousands separators (1,048,576).
func GroupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
