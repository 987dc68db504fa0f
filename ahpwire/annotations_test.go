package ahpwire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestAnnotationKeepsUnmodelledMembers: members a newer host adds to an
// annotation or an entry survive a decode and re-encode; a bare list of
// resource changes decodes as {items}.
func TestAnnotationKeepsUnmodelledMembers(t *testing.T) {
	in := `{"annotations":[{"id":"a","resource":"file:///x","resolved":false,"severity":"high",` +
		`"entries":[{"id":"e","text":"t","createdAt":"2026-01-01T00:00:00.000Z"}]}]}`
	st, err := DecodeAnnotationsState([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(st)
	var got, want any
	_ = json.Unmarshal(b, &got)
	_ = json.Unmarshal([]byte(in), &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip\n got %s\nwant %s", b, in)
	}
	a, err := DecodeAction([]byte(`{"type":"resourceWatch/changed","changes":[{"uri":"file:///x","type":"added"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c := a.(*ResourceWatchChanged).Changes.Items; len(c) != 1 || c[0].Type != ResourceAdded {
		t.Fatalf("bare list: %+v", c)
	}
}
