package ahpclient

import (
	"encoding/json"
	"reflect"
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
	f.Add([]byte(`{ "params" : { "action" : {"type":"chat/delta","content":"a\"b}"} , "serverSeq" : 12 , "channel" : "c\u0041", "origin": {"clientSeq": 4, "clientId": "me"}, "x": [1,{"y":"]"}] }, "method" : "action", "jsonrpc":"2.0" }`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":01,"action":{}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		// Differential: whenever the hand-written scanner accepts a frame
		// that encoding/json accepts too, both agree on every field.
		if sp, ok := scanActionFrame(b); ok && json.Valid(b) {
			var f actionFrame
			if err := json.Unmarshal(b, &f); err != nil || f.Params == nil {
				t.Fatalf("scanner accepted a frame encoding/json rejects (%v): %q", err, b)
			}
			jp := f.Params
			if sp.Channel != jp.Channel || sp.ServerSeq != jp.ServerSeq || sp.RejectionReason != jp.RejectionReason ||
				(sp.Origin == nil) != (jp.Origin == nil) || (sp.Origin != nil && *sp.Origin != *jp.Origin) ||
				string(sp.Action) != string(jp.Action) || f.Method != ahpwire.MethodAction || f.ID != nil {
				t.Fatalf("scanner and encoding/json disagree on %q:\n%+v\n%+v", b, sp, jp)
			}
		}
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

func TestStreamActionFastPathMatchesDecodeAction(t *testing.T) {
	for _, raw := range []string{
		`{"type":"chat/delta","turnId":"t","partId":"p","content":"hello \"x\" \u00e9"}`,
		`{"type":"chat/reasoning","turnId":"t","partId":"r","content":"think","_meta":{"k":1}}`,
		`{"content":"c","partId":"p","turnId":"t","type":"chat/delta","extra":[1,2]}`,
		`{"type":"chat/delta","turnId":"t","partId":"p","content":""}`,
	} {
		fast, ok := decodeStreamAction([]byte(raw))
		if !ok {
			t.Fatalf("fast path refused %s", raw)
		}
		slow, err := ahpwire.DecodeAction([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		fb, _ := ahpwire.MarshalAction(fast)
		sb, _ := ahpwire.MarshalAction(slow)
		if string(fb) != string(sb) {
			t.Fatalf("fast %s != DecodeAction %s", fb, sb)
		}
	}
	for _, raw := range []string{
		`{"type":"chat/turnStarted","turnId":"t","message":{"text":"\"type\":\"chat/delta\""}}`,
		`{"type":"chat/delta","content":42}`,
	} {
		if _, ok := decodeStreamAction([]byte(raw)); ok {
			t.Fatalf("fast path took %s", raw)
		}
	}
}

// FuzzStreamAction: whenever the hand-written scanner decodes an action,
// ahpwire.DecodeAction decodes the same bytes to an identical action.
func FuzzStreamAction(f *testing.F) {
	f.Add([]byte(`{"type":"chat/delta","turnId":"t","partId":"p","content":"a\n\"b\" \u003cc\u003e \ud83d\ude00 é"}`))
	f.Add([]byte(`{"type":"chat/reasoning","turnId":"t","partId":"r","content":"x","_meta":{"k":[1,"}"]}}`))
	f.Add([]byte(`{"Content":"x","type":"chat/delta"}`))
	f.Add([]byte(`{"type":"chat/delta","content":"\ud800"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := scanStreamAction(raw)
		if !ok {
			return
		}
		slow, err := ahpwire.DecodeAction(raw)
		if err != nil {
			t.Fatalf("scanner accepted what DecodeAction rejects (%v): %q", err, raw)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("scanner %#v != DecodeAction %#v for %q", fast, slow, raw)
		}
	})
}
