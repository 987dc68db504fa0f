package ahpclient

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestResourceWatchAndAnnotationsThroughTheClient: against the real host
// over a real WebSocket, a client creates a watch of its session's
// directory and receives resourceWatch/changed for a written file, and
// dispatches an annotation that its Mirror (fed from the event stream)
// holds as the host does.
func TestResourceWatchAndAnnotationsThroughTheClient(t *testing.T) {
	dir := t.TempDir()
	_, url := startHost(t, ahphost.Options{NoToken: true, Dir: dir})
	c, a := startClient(t, testOptions(t, url))
	session := sessionURI(31)
	openSession(t, c, a, session)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	watch, err := c.CreateResourceWatch(ctx, ahpwire.CreateResourceWatchParams{URI: "file://" + dir, Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Subscribe(ctx, watch, nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(file, []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.waitFor("resourceWatch/changed for notes.md", 10*time.Second, func(evs []Event) bool {
		for _, e := range evs {
			if env, ok := e.(EnvelopeEvent); ok && env.Envelope.Channel == watch {
				if ch, ok := env.Envelope.Action.(*ahpwire.ResourceWatchChanged); ok {
					for _, it := range ch.Changes.Items {
						if it.URI == "file://"+file {
							return true
						}
					}
				}
			}
		}
		return false
	})
	if _, err := c.CreateResourceWatch(ctx, ahpwire.CreateResourceWatchParams{URI: "file:///"}); err == nil {
		t.Fatal("a watch outside the session's directories was accepted")
	} else if code, _ := ErrorCode(err); code != ahpwire.CodePermissionDenied {
		t.Fatalf("outside watch: %v", err)
	}

	notes := ahpwire.AnnotationsURI(session)
	if _, err := c.Subscribe(ctx, notes, nil); err != nil {
		t.Fatal(err)
	}
	ann := ahpwire.Annotation{ID: "n1", Resource: "file://" + file, Entries: []ahpwire.AnnotationEntry{{ID: "n1/0", Text: ahpwire.Plain("Say more."), Meta: ahpwire.AuthorMeta("user")}}}
	if _, err := c.Dispatch(ctx, notes, &ahpwire.AnnotationsSet{Annotation: ann}); err != nil {
		t.Fatal(err)
	}
	m := ahpstate.NewMirror(ahpstate.Reducer{}, ahpstate.KindAnnotations)
	a.waitFor("the annotation in the mirror", 10*time.Second, func(evs []Event) bool {
		m = ahpstate.NewMirror(ahpstate.Reducer{}, ahpstate.KindAnnotations)
		for _, e := range evs {
			switch e := e.(type) {
			case SnapshotEvent:
				_, _ = m.Load(e.Snapshot)
			case EnvelopeEvent:
				m.Apply(e.Envelope)
			}
		}
		st, ok := m.Annotations(notes)
		return ok && len(st.Annotations) == 1
	})
	st, _ := m.Annotations(notes)
	if got := st.Annotations[0]; got.Entries[0].Text.Text != "Say more." || got.Entries[0].Author() != "user" {
		t.Fatalf("mirrored annotation %+v", got)
	}
}
