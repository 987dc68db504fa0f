package ahpclient

import (
	"context"
	"testing"
	"time"
)

// readPathSeeds are frames a host may send, well-formed and not.
var readPathSeeds = []string{
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":7,"result":{}}`,
	`{"jsonrpc":"2.0","id":"7","result":{}}`,
	`{"jsonrpc":"2.0","id":8,"method":"resourceRead","params":{"channel":"ahp-root://"}}`,
	`{"jsonrpc":"2.0","id":null,"method":"resourceRead"}`,
	`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-root://","serverSeq":3,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"x"}}}`,
	`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-root://","serverSeq":4,"action":{"type":"session/titleChanged","title":"T"}}}`,
	`{"jsonrpc":"2.0","method":"action","params":{"serverSeq":999999,"action":null}}`,
	`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-root://","serverSeq":5,"action":"nope"}}`,
	`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-root://","serverSeq":6,"rejectionReason":"no","origin":{"clientId":"fuzz","clientSeq":1},"action":{}}}`,
	`{"jsonrpc":"2.0","method":"root/sessionAdded","params":[1,2]}`,
	`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":2,"data":"eyJh"}}`,
	`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":1,"total":2,"data":"In0="}}`,
	`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"h","index":0,"total":1,"data":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOm51bGwsImVycm9yIjp7ImNvZGUiOjEsIm1lc3NhZ2UiOiJ4In19"}}`,
	`not json {`, ``, `null`, `[1,2,3]`, `"a string"`,
}

// FuzzReadPath feeds arbitrary frames to a live connection's read path
// (reassembly, routing, responses, envelopes, server requests) and, through
// a consumer calling Next, to the action decoding: nothing a host sends may
// panic. processFrame is called without the read loop's recover, so a
// panic fails the target. The frame is also decoded as a bare action the
// way Next does, without Next's recover.
func FuzzReadPath(f *testing.F) {
	for _, s := range readPathSeeds {
		f.Add([]byte(s))
	}
	k := liveConnForFuzz(f)
	f.Fuzz(func(t *testing.T, frame []byte) {
		if err := k.processFrame(frame); err != nil {
			t.Logf("frame refused: %v", err)
		}
		if a, err := decodeActionTolerant(frame); a == nil && err == nil {
			t.Fatal("decodeActionTolerant returned neither an action nor an error")
		}
	})
}

// liveConnForFuzz connects a client to a scripted host over loopback,
// drains its events, and returns its live connection.
func liveConnForFuzz(tb testing.TB) *conn {
	h := newScriptedHost(tb, nil)
	o := testOptions(tb, h.url())
	o.SessionsLimit = -1
	o.PingInterval = time.Hour // only the fuzz input reaches the read path
	o.ClientID = "fuzz"
	c, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	go func() {
		for {
			if _, err := c.Next(context.Background()); err != nil {
				return
			}
		}
	}()
	k, err := c.liveConn()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	return k
}
