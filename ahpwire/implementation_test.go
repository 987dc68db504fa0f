package ahpwire

import (
	"encoding/json"
	"reflect"
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
	if res.ServerInfo == nil || res.ServerInfo.Name != impl.Name || res.ServerInfo.Title != impl.Title {
		t.Errorf("serverInfo %+v", res.ServerInfo)
	}
}

// TestImplementationKeepsEveryIdentityMember: the optional identity members
// (description, websiteUrl, icons, _meta) survive a decode and re-encode.
func TestImplementationKeepsEveryIdentityMember(t *testing.T) {
	in := `{"name":"h","version":"1","title":"H","description":"a host","websiteUrl":"https://example.org",` +
		`"icons":[{"src":"https://example.org/i.png","mimeType":"image/png","sizes":["48x48"]}],"_meta":{"build":"abc"}}`
	var impl Implementation
	if err := json.Unmarshal([]byte(in), &impl); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(impl)
	var got, want any
	_ = json.Unmarshal(b, &got)
	_ = json.Unmarshal([]byte(in), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip lost members:\n got %s\nwant %s", b, in)
	}
}
