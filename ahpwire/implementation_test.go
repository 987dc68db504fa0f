package ahpwire

import (
	"encoding/json"
	"testing"
)

// TestImplementationRoundTrip: the handshake identity (clientInfo,
// serverInfo) is modelled: name, version and title survive a round trip
// inside InitializeParams and InitializeResult.
func TestImplementationRoundTrip(t *testing.T) {
	in := `{"name":"pi-ahp","version":"0.4.1","title":"Pi agent host"}`
	var impl Implementation
	if err := json.Unmarshal([]byte(in), &impl); err != nil {
		t.Fatal(err)
	}
	if impl.Name != "pi-ahp" || impl.Version != "0.4.1" || impl.Title != "Pi agent host" {
		t.Fatalf("decoded %+v", impl)
	}
	b, _ := json.Marshal(impl)
	if string(b) != in {
		t.Errorf("round trip %s", b)
	}
	var res InitializeResult
	if err := json.Unmarshal([]byte(`{"protocolVersion":"1.0.0","serverSeq":0,"serverInfo":`+in+`}`), &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo == nil || *res.ServerInfo != impl {
		t.Errorf("serverInfo %+v", res.ServerInfo)
	}
}
