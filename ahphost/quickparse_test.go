package ahphost

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// FuzzQuickParseAgrees: a single-frame message the scanner takes
// (quickParse) is the message encoding/json makes of it in c.handle, null
// id included; everything else goes to c.handle as before.
func FuzzQuickParseAgrees(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"resourceRead","params":{"channel":"ahp-root://","uri":"ahptui-part:/x/0"}}`,
		`{"jsonrpc":"2.0","method":"unsubscribe","params":{"channel":"ahp-chat:/c"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"7","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"result":{"a":[1,2]}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]} `,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"channel":"\u0000"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p reassembledMsg
		if !quickParse(b, &p) {
			return
		}
		var m ahpwire.Message
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("quickParse took %q, encoding/json did not: %v", b, err)
		}
		if nullID := m.ID == nil && hasIDMember(b); p.nullID != nullID {
			t.Fatalf("%q: null id %v, encoding/json's %v", b, p.nullID, nullID)
		}
		got, want := *p.m, m
		got.Params, want.Params = compact(t, got.Params), compact(t, want.Params)
		got.Result, want.Result = compact(t, got.Result), compact(t, want.Result)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nquickParse %+v\nencoding/json %+v", b, got, want)
		}
	})
}

// compact is raw without insignificant white space (nil stays nil).
func compact(t *testing.T, raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("compact %q: %v", raw, err)
	}
	return buf.Bytes()
}

// BenchmarkParseRequest: a page read as the host parses it, with the
// scanner (quickParse) and with encoding/json (c.handle's path).
func BenchmarkParseRequest(b *testing.B) {
	req := []byte(`{"jsonrpc":"2.0","id":107,"method":"resourceRead","params":{"channel":"ahp-root://","uri":"ahptui-part:/fan/t3/0/17"}}`)
	b.Run("quickParse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var p reassembledMsg
			if !quickParse(req, &p) {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var m ahpwire.Message
			if err := json.Unmarshal(req, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
