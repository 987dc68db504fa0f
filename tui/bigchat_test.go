package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// openReferencedReply seeds a host (opts) with one finished turn whose
// reply is at least size bytes of filler ending in THE-END-MARKER, opens it
// in the TUI and waits until the reply's end shows (wait only turns a hang
// into a failure). The reply
// must arrive as contentRef pages (refs > 1, nothing above inlineMax
// inline) and no reference may show as "not loaded".
func openReferencedReply(t *testing.T, opts ahphost.Options, size, inlineMax int, wait time.Duration) (r *liveRig, refs int) {
	t.Helper()
	opts.Dir, opts.NoToken = t.TempDir(), true
	r = startLiveRig(t, opts)
	var b strings.Builder
	for b.Len() < size {
		b.WriteString("filler line of the long reply\n")
	}
	b.WriteString("\nTHE-END-MARKER\n")
	turn := ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "long please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", b.String())}, State: ahpwire.TurnComplete}
	if _, err := r.host.SeedSession("ahp-session:/big", []ahpwire.Turn{turn}); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/big"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	// The snapshot's window starts after the large turn; the chat pages it
	// in through fetchTurns, by reference (issue 21).
	r.pump("large turn paged in", func(m Model) bool { return len(m.chat.AHP().Turns) > 0 })

	for _, p := range r.m.chat.AHP().Turns[0].ResponseParts {
		if p.Kind == ahpwire.PartContentRef {
			refs++
		} else if p.Kind == ahpwire.PartMarkdown && len(p.Content) > inlineMax {
			t.Fatal("the finished big reply arrived inline")
		}
	}
	if refs < 2 {
		t.Fatalf("%d contentRef parts, want the reply in pages", refs)
	}
	deadline := time.Now().Add(wait)
	for !strings.Contains(viewText(r.m), "THE-END-MARKER") {
		if time.Now().After(deadline) {
			t.Fatalf("the referenced reply's visible end never showed:\n%s", viewText(r.m))
		}
		r.m = send(t, r.m, app.FrameMsg{})
	}
	if v := viewText(r.m); strings.Contains(v, "not loaded") {
		t.Fatalf("a reference shown as not loaded:\n%s", v)
	}
	return r, refs
}

// TestLiveBigReplyByReference (issue 12): a finished reply above the
// host's LargePartBytes arrives as contentRef pages; the TUI opens the
// chat, reads the visible pages with resourceRead through the loader and
// shows their text (never "not loaded").
func TestLiveBigReplyByReference(t *testing.T) {
	openReferencedReply(t, ahphost.Options{LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10}, 300<<10, 64<<10, 60*time.Second)
}

// TestLiveLongReplyLoadsOnlyNearPages (issue 12): a finished 4 MB reply
// arrives as ~256 contentRef pages of 16 KB; opening the chat reads only
// the pages near the window (its end), not the whole reply, and shows them.
func TestLiveLongReplyLoadsOnlyNearPages(t *testing.T) {
	const size = 4 << 20
	r, refs := openReferencedReply(t, ahphost.Options{LargePartBytes: 1 << 20, ResourcePageBytes: 16 << 10}, size, 1<<20, 60*time.Second)
	if n := len(r.m.c.Channels.Loader.Texts()); n == 0 || n > 16 {
		t.Fatalf("%d of %d pages loaded for one screen", n, refs)
	}

	// An export holds the whole reply, the pages never shown included.
	data := exported(t, r)
	if got := strings.Count(data, "filler line of the long reply"); got < size/30 || !strings.Contains(data, "THE-END-MARKER") {
		t.Fatalf("export has %d filler lines of the reply", got)
	}
}
