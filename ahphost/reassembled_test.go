package ahphost

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/segment"
)

// oneSegment wraps msg in a one-segment group.
func oneSegment(gid, msg string) string {
	return segFrame(`{"groupId":"` + gid + `","index":0,"total":1,"data":"` + base64.StdEncoding.EncodeToString([]byte(msg)) + `"}`)
}

// TestReassembledDeepViolationsClose4400: the host leaves the JSON-RPC
// check of a reassembled message to its parse (FeedUnchecked +
// parseReassembled), so a violation anywhere in it, deep inside params or in
// the last segment of many, must still close the connection with 4400; the
// same bytes sent unsegmented are answered with a JSON-RPC error instead.
func TestReassembledDeepViolationsClose4400(t *testing.T) {
	const limit = 16 * kib
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: limit})
	pad := strings.Repeat(`{"id":"x","text":"line \"quoted\" naïve ✓\n"},`, 1500) // ≈ 60 KB: several segments
	ping := func(params string) string {
		return `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"channel":"ahp-root://","pad":[` + pad + params + `]}}`
	}
	tests := []struct{ name, msg string }{
		{"bad escape deep in params", ping(`{"s":"\q"}`)},
		{"invalid UTF-8 deep in a string", ping(`{"s":"` + string([]byte{0xc3, 0x28}) + `"}`)},
		{"unterminated nested object", ping(`{"s":1`)},
		{"trailing garbage", ping(`1`) + ` x`},
		{"second message after the first", ping(`1`) + `{}`},
		{"duplicate method", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":[` + pad + `1]},"method":"ping"}`},
		{"case-folded member", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":[` + pad + `1]},"Method":"x"}`},
		{"result on a request", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":[` + pad + `1]},"result":{}}`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"ping","params":{"pad":[` + pad + `1]}}`},
	}
	bystander := dial(t, u, nil)
	bystander.initialize("by", nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := chunkingClient(t, u, "c-"+tc.name, limit)
			if n := w.sendSegmented([]byte(tc.msg), limit); n < 3 {
				t.Fatalf("message went in %d frames, want several", n)
			}
			if st := w.closed(); st != segment.CloseCode {
				t.Fatalf("close status %d, want %d", st, segment.CloseCode)
			}
			bystander.call("ping", map[string]any{"channel": "ahp-root://"})
		})
	}
}

// TestReassembledAnsweredLikeUnsegmented: a valid JSON-RPC message is
// answered byte for byte the same whether it arrives whole or reassembled
// from segments (parseReassembled builds what json.Unmarshal would, and
// route answers both the same way), including the messages the host
// refuses (string, fractional or null id, unknown method).
func TestReassembledAnsweredLikeUnsegmented(t *testing.T) {
	const limit = 16 * kib // the segmenting client's frames; the plain one sends up to 64 KiB
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib})
	big := strings.Repeat(`naïve \"café\" ✓\n`, 2000) // ≈ 40 KB: several segments
	msgs := []string{
		`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"channel":"ahp-root://","pad":"` + big + `"}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":8.5,"method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"noSuchMethod","params":{}}`,
		`{"jsonrpc":"2\u002e0","id":10,"method":"ping","params":{"channel":"ahp-root://","pad":[{"id":1}]}}`,
		`{"jsonrpc":"2.0","id":11,"method":"ping","params":[]}`,
	}
	plain := dial(t, u, nil)
	plain.initialize("plain", nil, nil)
	seg := chunkingClient(t, u, "seg", limit)
	for i, m := range msgs {
		plain.sendRaw(m)
		want := string(plain.next())
		if len(m) > limit {
			seg.sendSegmented([]byte(m), limit)
		} else {
			seg.sendRaw(oneSegment("g"+strings.Repeat("x", i), m))
		}
		if got := string(seg.next()); got != want {
			t.Errorf("message %d (%s):\nreassembled answered %s\nunsegmented answered %s", i, clip([]byte(m)), clip([]byte(got)), clip([]byte(want)))
		}
	}
	// A notification carrying nested "id" members is not taken for a
	// request with a null id: it is handled (here: ignored) without answer.
	seg.sendRaw(oneSegment("n", `{"jsonrpc":"2.0","method":"noSuchNotification","params":{"items":[{"id":null}]}}`))
	seg.call("ping", map[string]any{"channel": "ahp-root://"})
	if len(seg.pending) != 0 {
		t.Fatalf("notification answered: %s", clip(seg.pending[0]))
	}
}
