package ahphost

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestDemoReviewLoop: "/demo edit" leaves the agent's comment on the
// session's annotations channel; the comments sent back as a review
// prompt (ahpwire.ReviewPrompt) are answered on each thread and resolved;
// "/demo touch" changes a file a client's watch of the session directory
// reports.
func TestDemoReviewLoop(t *testing.T) {
	dir := t.TempDir()
	_, u := startHost(t, Options{NoToken: true, Dir: dir, Pace: time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("rev", nil, nil)
	sess := "ahp-session:/review"
	chat := w.createSession(sess)
	w.call("subscribe", map[string]any{"channel": chat})
	notes := ahpwire.AnnotationsURI(sess)
	reader := dial(t, u, nil)
	reader.initialize("reader", nil, nil)
	current := func() ahpwire.AnnotationsState {
		st, _ := subscribeAnnotations(t, reader, notes)
		return st
	}
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo edit", seq)
	driveTurn(t, w, chat, "t1", true, &seq)
	subscribeAnnotations(t, w, notes)
	w.notify("dispatchAction", map[string]any{"channel": notes, "clientSeq": 50, "action": json.RawMessage(
		`{"type":"annotations/set","annotation":{"id":"mine","turnId":"t1","resource":"file:///home/demo/project/render.go","resolved":false,"entries":[{"id":"mine/0","text":"Wrap at 80."}]}}`)})
	w.action("my comment", func(e envelope) bool { return e.Channel == notes && e.Origin != nil && e.Origin.ClientSeq == 50 })
	st := current()
	if len(st.Annotations) != 2 || st.Annotations[0].Entries[0].Author() != "agent" || st.Annotations[0].Turn() != "t1" {
		t.Fatalf("after /demo edit: %+v", st.Annotations)
	}
	seq++
	w.sendMessage(chat, "t2", ahpwire.ReviewPrompt(st.Annotations), seq)
	driveTurn(t, w, chat, "t2", true, &seq)
	st = current()
	for _, a := range st.Annotations {
		if !a.Resolved || len(a.Entries) != 2 || a.Entries[1].Author() != "agent" {
			t.Fatalf("after the review prompt: %+v", a)
		}
	}
	if ahpwire.ReviewPrompt(st.Annotations) != "" {
		t.Fatal("resolved comments are still in the review prompt")
	}

	var res ahpwire.CreateResourceWatchResult
	must(t, json.Unmarshal(w.call("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": fileURI(dir), "recursive": true}), &res))
	w.call("subscribe", map[string]any{"channel": res.Channel})
	seq++
	w.sendMessage(chat, "t3", "/demo touch", seq)
	driveTurn(t, w, chat, "t3", true, &seq)
	touched := fileURI(filepath.Join(dir, ".ahptui-demo", "touched.md"))
	changesUntil(t, w, res.Channel, func(m map[string]string) bool { return m[touched] != "" })
}
