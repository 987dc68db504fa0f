package ahpstate

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func annotationsOf(t *testing.T, raw string) ahpwire.AnnotationsState {
	t.Helper()
	s, err := ahpwire.DecodeAnnotationsState([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAnnotationsRules pins each case of the annotations reducer: set adds
// and replaces, updated merges present members (origin included), removed
// and entryRemoved drop, entrySet on an unknown annotation is a no-op; no
// earlier state is modified.
func TestAnnotationsRules(t *testing.T) {
	s0 := annotationsOf(t, `{"annotations":[{"id":"a","turnId":"t1","resource":"file:///x","resolved":false,"entries":[{"id":"e1","text":"one"}]}]}`)
	steps := []struct {
		action, want string
	}{
		{`{"type":"annotations/set","annotation":{"id":"b","origin":{"session":"ahp-session:/s","chat":"ahp-chat:/c","turnId":"t2"},"resource":"file:///y","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":4}},"resolved":false,"entries":[{"id":"e","text":{"markdown":"**b**"},"_meta":{"author":"user"}}]}}`,
			`{"annotations":[{"id":"a","turnId":"t1","resource":"file:///x","resolved":false,"entries":[{"id":"e1","text":"one"}]},{"id":"b","origin":{"session":"ahp-session:/s","chat":"ahp-chat:/c","turnId":"t2"},"resource":"file:///y","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":4}},"resolved":false,"entries":[{"id":"e","text":{"markdown":"**b**"},"_meta":{"author":"user"}}]}]}`},
		{`{"type":"annotations/updated","annotationId":"a","resolved":true,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}}}`,
			`{"annotations":[{"id":"a","turnId":"t1","resource":"file:///x","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"resolved":true,"entries":[{"id":"e1","text":"one"}]},{"id":"b","origin":{"session":"ahp-session:/s","chat":"ahp-chat:/c","turnId":"t2"},"resource":"file:///y","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":4}},"resolved":false,"entries":[{"id":"e","text":{"markdown":"**b**"},"_meta":{"author":"user"}}]}]}`},
		{`{"type":"annotations/entrySet","annotationId":"missing","entry":{"id":"z","text":"z"}}`, ""},
		{`{"type":"annotations/entryRemoved","annotationId":"b","entryId":"e"}`,
			`{"annotations":[{"id":"a","turnId":"t1","resource":"file:///x","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"resolved":true,"entries":[{"id":"e1","text":"one"}]},{"id":"b","origin":{"session":"ahp-session:/s","chat":"ahp-chat:/c","turnId":"t2"},"resource":"file:///y","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":4}},"resolved":false,"entries":[]}]}`},
		{`{"type":"annotations/removed","annotationId":"a"}`,
			`{"annotations":[{"id":"b","origin":{"session":"ahp-session:/s","chat":"ahp-chat:/c","turnId":"t2"},"resource":"file:///y","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":4}},"resolved":false,"entries":[]}]}`},
		{`{"type":"annotations/removed","annotationId":"a"}`, ""},
	}
	s := s0
	before := mustJSON(t, s0)
	for i, st := range steps {
		prev := mustJSON(t, s)
		s = ReduceAnnotations(s, decodeActions(t, st.action)[0])
		want := st.want
		if want == "" {
			want = prev
		}
		if got := mustJSON(t, s); got != want {
			t.Fatalf("step %d %s\n got %s\nwant %s", i, st.action, got, want)
		}
	}
	if mustJSON(t, s0) != before {
		t.Fatal("initial state mutated")
	}
	if sum := s.Summary("ahp-session:/s/annotations"); sum.AnnotationCount != 1 || sum.EntryCount != 0 {
		t.Fatalf("summary %+v", sum)
	}
}

// TestValidateAnnotationsAction: client actions are bounded and must name
// known annotations; other channels' actions are refused.
func TestValidateAnnotationsAction(t *testing.T) {
	s := annotationsOf(t, `{"annotations":[{"id":"a","resource":"file:///x","resolved":false,"entries":[]}]}`)
	big := strings.Repeat("x", MaxAnnotationTextBytes+1)
	cases := []struct {
		action, reason string
	}{
		{`{"type":"annotations/set","annotation":{"id":"b","resource":"file:///y","resolved":false,"entries":[{"id":"e","text":"ok"}]}}`, ""},
		{`{"type":"annotations/set","annotation":{"id":"","resource":"file:///y","resolved":false,"entries":[]}}`, "id is empty"},
		{`{"type":"annotations/set","annotation":{"id":"b","resource":"","resolved":false,"entries":[]}}`, "resource is empty"},
		{`{"type":"annotations/set","annotation":{"id":"b","resource":"file:///y","range":{"start":{"line":3,"character":0},"end":{"line":1,"character":0}},"resolved":false,"entries":[]}}`, "range is invalid"},
		{`{"type":"annotations/entrySet","annotationId":"a","entry":{"id":"e","text":"` + big + `"}}`, "text longer"},
		{`{"type":"annotations/entrySet","annotationId":"nope","entry":{"id":"e","text":"x"}}`, "no annotation"},
		{`{"type":"annotations/updated","annotationId":"nope","resolved":true}`, "no annotation"},
		{`{"type":"annotations/removed","annotationId":"a"}`, ""},
		{`{"type":"chat/turnCancelled","turnId":"t","duration":1}`, "does not belong"},
	}
	for _, c := range cases {
		err := ValidateAnnotationsAction(s, decodeActions(t, c.action)[0])
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("%.60s: rejected: %v", c.action, err)
		case c.reason != "" && (err == nil || !strings.Contains(err.Error(), c.reason)):
			t.Errorf("%.60s: err %v, want %q", c.action, err, c.reason)
		}
	}
	if err := ValidateAnnotationsAction(s, &ahpwire.UnknownAction{Type: "annotations/bogus"}); err == nil || !strings.Contains(err.Error(), "unknown action type") {
		t.Errorf("unknown annotations action: %v", err)
	}
}
