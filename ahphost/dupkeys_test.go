package ahphost

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// TestDuplicateEnvelopeMembersRefused: a frame naming "method" twice, or in
// another case, is refused as an invalid request (id null) on the plain
// path, never read as one of its spellings; a segment frame whose second
// "method" is something else is a malformed segment (4400). Before the fix
// the segment layer read the first "method", encoding/json the last, so
// {"method":"ping","method":"ahp/messageSegment"} skipped the segment layer.
func TestDuplicateEnvelopeMembersRefused(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("dup", nil, nil)
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"ping","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":2,"data":""}}`,
		`{"jsonrpc":"2.0","id":7,"method":"nope","Method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":7,"id":8,"method":"ping","params":{"channel":"ahp-root://"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"channel":"ahp-root://"},"params":{}}`,
	} {
		w.sendRaw(frame)
		m := w.waitFor("error reply", func(m wire) bool { return m.Error != nil || m.ID != nil })
		if m.Error == nil || m.Error.Code != ahpwire.CodeInvalidRequest || m.ID != nil {
			t.Fatalf("%s: reply %+v, want -32600 with id null", frame, m)
		}
	}
	// The connection is still usable.
	w.call("ping", map[string]any{"channel": "ahp-root://"})

	seg := dial(t, u, nil)
	seg.initialize("dup-seg", nil, nil)
	seg.sendRaw(`{"jsonrpc":"2.0","method":"ahp/messageSegment","method":"ping","params":{"groupId":"g","index":0,"total":2,"data":""}}`)
	if st := seg.closed(); st != segment.CloseCode {
		t.Fatalf("segment frame with two methods closed with %d, want 4400", st)
	}
}
