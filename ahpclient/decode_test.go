package ahpclient

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/segment"
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

// refActionFrame is what decodeActionFast must return, computed with
// encoding/json only.
func refActionFrame(b []byte) (*envelopeParams, bool) {
	var f actionFrame
	if json.Unmarshal(b, &f) != nil || f.Method != ahpwire.MethodAction || f.ID != nil || f.Params == nil || testkit.EnvelopeKeys(b) != "" {
		return nil, false
	}
	return f.Params, true
}

func sameParams(a, b *envelopeParams) bool {
	return a.Channel == b.Channel && a.ServerSeq == b.ServerSeq && a.RejectionReason == b.RejectionReason &&
		(a.Origin == nil) == (b.Origin == nil) && (a.Origin == nil || *a.Origin == *b.Origin) &&
		bytes.Equal(a.Action, b.Action)
}

// FuzzDecodeFrame feeds arbitrary host frames to the client's decoders.
// On every input (valid JSON or not): the hand-written scanner, and
// decodeActionFast (scanner, then encoding/json), accept only what the
// encoding/json reference accepts, with identical fields; the generic ahpwire.Message decode refuses duplicate and
// case-folded envelope members; anything accepted as an envelope re-encodes.
func FuzzDecodeFrame(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"x"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":null}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))
	f.Add([]byte(`{ "params" : { "action" : {"type":"chat/delta","content":"a\"b}"} , "serverSeq" : 12 , "channel" : "c\u0041", "origin": {"clientSeq": 4, "clientId": "me"}, "x": [1,{"y":"]"}] }, "method" : "action", "jsonrpc":"2.0" }`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":01,"action":{}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"ping","method":"action","params":{"channel":"c","serverSeq":1,"action":{}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","Method":"action","params":{"channel":"c","serverSeq":1,"action":{}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":{"type":"x","a":[1,]}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ref, refOK := refActionFrame(b)
		if sp, ok := scanActionFrame(b); ok && (!refOK || !sameParams(sp, ref)) {
			t.Fatalf("scanner and encoding/json disagree on %q:\n%+v\n%+v (reference ok %v)", b, sp, ref, refOK)
		}
		p, ok := decodeActionFast(b)
		// Not ok means "not the common shape": handle then decodes it as an
		// ahpwire.Message (checked below), so only acceptance must agree.
		if ok && (!refOK || !sameParams(p, ref)) {
			t.Fatalf("decodeActionFast(%q) = %+v, %v; reference %+v, %v", b, p, ok, ref, refOK)
		}
		if ok {
			env, err := p.envelope()
			if err == nil || env.Action != nil {
				if _, merr := ahpwire.MarshalAction(env.Action); merr != nil && err == nil {
					t.Fatalf("accepted action does not re-encode: %v", merr)
				}
			}
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) == nil && testkit.EnvelopeKeys(b) != "" {
			t.Fatalf("ahpwire.Message accepted duplicate or case-folded envelope members: %q", b)
		}
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
	f.Add([]byte("{\"type\":\"chat/delta\",\"turnId\":\"t\",\"partId\":\"p\",\"content\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		// The whole decoder (scanner, then encoding/json) equals
		// DecodeAction whenever it decodes.
		if whole, ok := decodeStreamAction(raw); ok {
			slow, err := ahpwire.DecodeAction(raw)
			if err != nil || !reflect.DeepEqual(whole, slow) {
				t.Fatalf("decodeStreamAction %#v != DecodeAction %#v (%v) for %q", whole, slow, err, raw)
			}
		}
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

// FuzzReassembledActionFrame: whatever scanActionFrame accepts passes the
// segment RFC's check of a reassembled message (given valid UTF-8, which
// FeedUnchecked checks), so a reassembled action frame it parses needs no
// separate validation pass.
func FuzzReassembledActionFrame(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"x"}}}`))
	f.Add([]byte(`{"method":"action","params":{"channel":"c","serverSeq":1,"action":{}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"action":{"a":[1,]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"c","serverSeq":1,"origin":null,"x":{"y":"\ud800"},"action":{}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, ok := scanActionFrame(b); ok {
			if err := segment.CheckMessage(b); err != nil {
				t.Fatalf("scanActionFrame accepted %q, which the RFC check refuses: %v", b, err)
			}
		}
	})
}

// FuzzMessageFromParsed: for every message segment.ParseMessage accepts,
// messageFromParsed builds exactly what json.Unmarshal into ahpwire.Message
// decodes (or both fail), so a reassembled message is parsed once.
func FuzzMessageFromParsed(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x","data":{"k":1}}}`,
		`{"jsonrpc":"2.0","id":"s","result":1}`,
		`{"jsonrpc":"2.0","id":-1,"result":1}`,
		`{"jsonrpc":"2.0","id":1.5,"result":null}`,
		`{"jsonrpc":"2.0","method":"m\u00e9","params":[1]}`,
		`{"jsonrpc":"2\u002e0","id":18446744073709551615,"error":{"code":1.5,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x","Code":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := segment.ParseMessage(b)
		if err != nil {
			return
		}
		got, gerr := messageFromParsed(p)
		var want ahpwire.Message
		werr := json.Unmarshal(b, &want)
		if (gerr == nil) != (werr == nil) || (gerr == nil && !reflect.DeepEqual(*got, want)) {
			t.Fatalf("messageFromParsed(%q) = %+v, %v; json.Unmarshal %+v, %v", b, got, gerr, want, werr)
		}
	})
}
