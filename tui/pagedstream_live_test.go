package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestLivePagedStreamShowsTheWholeReply (issue 31): with a host that pages
// a long reply while it streams (the default: every host pages), the
// chat holds the turn as the host does — an inline head and content
// references — shows the reply's end at once, and an export gives the
// reply back byte for byte.
func TestLivePagedStreamShowsTheWholeReply(t *testing.T) {
	const n = 3000000
	r := startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond})
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	r.m = typeText(t, r.m, "/demo big 3000000")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the reply's end on screen", func(m Model) bool {
		return m.chat.State.Current == nil && strings.Contains(viewText(m), "-- end of 3000000 bytes --")
	})
	turns := r.m.chat.AHP().Turns
	last := turns[len(turns)-1].ResponseParts
	refs := 0
	for _, p := range last {
		switch p.Kind {
		case ahpwire.PartContentRef:
			refs++
		case ahpwire.PartMarkdown:
			if int64(len(p.Content)) > ahphost.DefaultPagedPartBytes {
				t.Fatalf("a %d-byte markdown part inline", len(p.Content))
			}
		}
	}
	if refs < 10 {
		t.Fatalf("the turn has %d content references", refs)
	}
	if got := exported(t, r); !strings.Contains(got, strings.TrimSpace(demo.BigReply(n))) {
		t.Fatalf("export does not hold the reply byte for byte (%d bytes exported)", len(got))
	}
}
