package ahpclient

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestDecodeActionFast(t *testing.T) {
	frame := []byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/c","serverSeq":7,"origin":{"clientId":"me","clientSeq":3},"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"hi"}}}`)
	p, ok := decodeActionFast(frame)
	if !ok {
		t.Fatal("fast path refused an action frame")
	}
	env, err := p.envelope()
	if err != nil {
		t.Fatal(err)
	}
	d, isDelta := env.Action.(*ahpwire.ChatDelta)
	if !isDelta || d.Content != "hi" || env.ServerSeq != 7 || env.Origin.ClientSeq != 3 || env.Channel != "ahp-chat:/c" {
		t.Fatalf("decoded %+v", env)
	}
	for _, other := range []string{
		`{"jsonrpc":"2.0","id":4,"result":{"text":"\"method\":\"action\""}}`, // a response mentioning it
		`{"jsonrpc":"2.0","method":"root/sessionAdded","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"action","params":{}}`, // a request, not a notification
		`not json "method":"action"`,
	} {
		if _, ok := decodeActionFast([]byte(other)); ok {
			t.Fatalf("fast path took %s", other)
		}
	}
}

func TestEnvelopeTolerantDecode(t *testing.T) {
	p := envelopeParams{Channel: "ahp-chat:/c", ServerSeq: 9, Action: json.RawMessage(`{"type":"chat/delta","content":42}`)}
	env, err := p.envelope()
	if err == nil {
		t.Fatal("malformed known action not reported")
	}
	u, ok := env.Action.(*ahpwire.UnknownAction)
	if !ok || u.Type != "chat/delta" || env.ServerSeq != 9 {
		t.Fatalf("malformed action not kept as unknown: %+v", env)
	}
	p = envelopeParams{Channel: "ahp-chat:/c", ServerSeq: 10, Action: json.RawMessage(`{"type":"x-future/thing","a":1}`)}
	if env, err := p.envelope(); err != nil || env.Action.ActionType() != "x-future/thing" {
		t.Fatalf("unknown type: %+v, %v", env, err)
	}
	p = envelopeParams{Channel: "ahp-chat:/c", ServerSeq: 11}
	if env, err := p.envelope(); err == nil || env.Action != nil {
		t.Fatalf("missing action accepted: %+v", env)
	}
}

// FuzzDecodeFrame feeds arbitrary host frames to the client's decoders: no
// panic, and anything accepted as an envelope re-encodes.
func FuzzDecodeFrame(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"x"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":null}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, ok := decodeActionFast(b); ok {
			env, err := p.envelope()
			if err == nil || env.Action != nil {
				if _, merr := ahpwire.MarshalAction(env.Action); merr != nil && err == nil {
					t.Fatalf("accepted action does not re-encode: %v", merr)
				}
			}
		}
		var m ahpwire.Message
		_ = json.Unmarshal(b, &m)
	})
}
