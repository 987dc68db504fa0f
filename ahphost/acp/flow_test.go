package acp

import "testing"

// TestUpdateFlowCountsUpdateLines: only session/update lines count, also
// when a line or its marker is split across reads; handled gives one back.
func TestUpdateFlowCountsUpdateLines(t *testing.T) {
	f := newUpdateFlow()
	in := `{"jsonrpc":"2.0","method":"session/update","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"text":"a \"session/update\" quoted"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"x":1}}` + "\n" + `{"method":"sess`
	for i := 0; i < len(in); i += 7 { // reads of 7 bytes split the marker
		f.count([]byte(in[i:min(i+7, len(in))]))
	}
	if f.inFlight != 2 {
		t.Fatalf("in flight %d, want 2", f.inFlight)
	}
	f.count([]byte(`ion/update"}` + "\n"))
	f.handled()
	if f.inFlight != 2 {
		t.Fatalf("in flight %d after one more update and one handled, want 2", f.inFlight)
	}
}
