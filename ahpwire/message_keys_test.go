package ahpwire

import (
	"encoding/json"
	"testing"
)

// TestMessageRefusesAmbiguousEnvelope: duplicate or case-folded envelope
// members are refused; other members may repeat (they are not ours).
func TestMessageRefusesAmbiguousEnvelope(t *testing.T) {
	for _, bad := range []string{
		`{"jsonrpc":"2.0","method":"ping","method":"ahp/messageSegment"}`,
		`{"jsonrpc":"2.0","Method":"ping"}`,
		`{"jsonrpc":"2.0","jsonrpc":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"iD":2,"result":null}`,
		`{"jsonrpc":"2.0","id":1,"result":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"},"ERROR":null}`,
		`{"jsonrpc":"2.0","meth\u006fd":"a","method":"b"}`,
		`{"jſonrpc":"2.0","method":"ping"}`,
	} {
		var m Message
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("accepted %s as %+v", bad, m)
		}
	}
	var m Message
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"x":1,"x":2}`), &m); err != nil || m.Method != "ping" {
		t.Fatalf("unambiguous message refused: %v", err)
	}
}
