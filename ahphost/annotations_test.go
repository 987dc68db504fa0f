package ahphost

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// subscribeAnnotations subscribes w to an annotations channel and returns
// its snapshot state and fromSeq.
func subscribeAnnotations(t *testing.T, w *wsClient, uri string) (ahpwire.AnnotationsState, uint64) {
	t.Helper()
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": uri}), &res))
	st, err := ahpwire.DecodeAnnotationsState(res.Snapshot.State)
	must(t, err)
	return st, res.Snapshot.FromSeq
}

// TestAnnotationsChannelOverTheWire: a session's annotations channel over a
// real WebSocket. One client adds a comment and a reply and resolves it;
// another client subscribed to the channel reduces the same actions to the
// state a fresh subscriber's snapshot shows; a bad action is echoed with
// its reason and changes nothing; the root catalogue carries the counts;
// the channel goes away with its session.
func TestAnnotationsChannelOverTheWire(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	a := dial(t, u, nil)
	a.initialize("a", []string{ahpwire.RootURI}, nil)
	sess := "ahp-session:/ann"
	a.createSession(sess)
	ch := ahpwire.AnnotationsURI(sess)
	b := dial(t, u, nil)
	b.initialize("b", nil, nil)
	mirror, from := subscribeAnnotations(t, b, ch)
	subscribeAnnotations(t, a, ch) // the dispatcher sees its echoes
	if len(mirror.Annotations) != 0 {
		t.Fatalf("new session has annotations: %+v", mirror)
	}
	dispatch := func(seq uint64, action string) {
		a.notify("dispatchAction", map[string]any{"channel": ch, "clientSeq": seq, "action": json.RawMessage(action)})
	}
	dispatch(1, `{"type":"annotations/set","annotation":{"id":"n1","turnId":"t1","resource":"file:///w/main.go","range":{"start":{"line":3,"character":0},"end":{"line":5,"character":0}},"resolved":false,"entries":[{"id":"n1/0","text":"Use a constant here.","_meta":{"author":"user"}}]}}`)
	dispatch(2, `{"type":"annotations/entrySet","annotationId":"n1","entry":{"id":"n1/1","text":"And name it."}}`)
	dispatch(3, `{"type":"annotations/entrySet","annotationId":"nope","entry":{"id":"x","text":"lost"}}`)
	dispatch(4, `{"type":"annotations/updated","annotationId":"n1","resolved":true}`)
	rejected := a.action("rejected entrySet", func(e envelope) bool { return e.Channel == ch && e.Origin != nil && e.Origin.ClientSeq == 3 })
	if !strings.Contains(rejected.RejectionReason, "no annotation") {
		t.Fatalf("bad action echoed with %q", rejected.RejectionReason)
	}
	for n := 0; n < 3; {
		e := b.action("annotations action", func(e envelope) bool { return e.Channel == ch })
		if e.ServerSeq <= from || e.RejectionReason != "" {
			continue
		}
		act, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		mirror = ahpstate.ReduceAnnotations(mirror, act)
		n++
	}
	c := dial(t, u, nil)
	c.initialize("c", nil, nil)
	fresh, _ := subscribeAnnotations(t, c, ch)
	if !reflect.DeepEqual(mirror, fresh) {
		t.Fatalf("live mirror %+v\n!= snapshot %+v", mirror, fresh)
	}
	if len(fresh.Annotations) != 1 || !fresh.Annotations[0].Resolved || len(fresh.Annotations[0].Entries) != 2 ||
		fresh.Annotations[0].Entries[0].Author() != "user" {
		t.Fatalf("state %+v", fresh)
	}
	a.waitFor("summary with annotation counts", func(m wire) bool {
		return m.Method == ahpwire.MethodSessionSummaryChanged && strings.Contains(string(m.Params), `"annotationCount":1,"entryCount":2`)
	})
	var list struct {
		Items []ahpwire.SessionSummary `json:"items"`
	}
	must(t, json.Unmarshal(a.call("listSessions", map[string]any{"channel": ahpwire.RootURI}), &list))
	if len(list.Items) != 1 || list.Items[0].Annotations == nil || list.Items[0].Annotations.Resource != ch ||
		list.Items[0].Annotations.EntryCount != 2 {
		t.Fatalf("listSessions %+v", list.Items)
	}
	a.call("disposeSession", map[string]any{"channel": sess})
	if code, _ := c.callErr("subscribe", map[string]any{"channel": ch}); code != ahpwire.CodeNotFound {
		t.Fatalf("subscribe to a disposed session's annotations: code %d", code)
	}
}

// TestDurableRestartKeepsAnnotations: a session's annotations are kept with
// it in the state database: after a restart on the same state directory
// the annotations channel shows them and takes new actions.
func TestDurableRestartKeepsAnnotations(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	sess := "ahp-session:/keepnotes"
	w.createSession(sess)
	ch := ahpwire.AnnotationsURI(sess)
	subscribeAnnotations(t, w, ch)
	w.notify("dispatchAction", map[string]any{"channel": ch, "clientSeq": 1, "action": json.RawMessage(
		`{"type":"annotations/set","annotation":{"id":"n1","resource":"file:///w/a.go","resolved":false,"entries":[{"id":"n1/0","text":"keep me"}]}}`)})
	w.actionOfType(ch, ahpwire.ActionAnnotationsSet)
	before, _ := subscribeAnnotations(t, w, ch)
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, Options{})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	after, _ := subscribeAnnotations(t, w2, ch)
	if !reflect.DeepEqual(after, before) || len(after.Annotations) != 1 {
		t.Fatalf("annotations across the restart:\nbefore %+v\nafter  %+v", before, after)
	}
	w2.notify("dispatchAction", map[string]any{"channel": ch, "clientSeq": 1, "action": json.RawMessage(
		`{"type":"annotations/entrySet","annotationId":"n1","entry":{"id":"n1/1","text":"kept"}}`)})
	if e := w2.actionOfType(ch, ahpwire.ActionAnnotationsEntrySet); e.RejectionReason != "" {
		t.Fatalf("restored annotation refused an entry: %s", e.RejectionReason)
	}
}
