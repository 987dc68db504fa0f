package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// TestLiveLongReplyLoadsOnlyNearPages (issue 12): a finished 20 MB reply
// arrives as ~320 contentRef pages; opening the chat reads only the pages
// near the window (its end), not the whole reply, and shows them.
func TestLiveLongReplyLoadsOnlyNearPages(t *testing.T) {
	before := testkit.Goroutines()
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), NoToken: true, LargePartBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; b.Len() < 20<<20; i++ {
		b.WriteString("filler line of the long reply\n")
	}
	b.WriteString("\nTHE-END-MARKER\n")
	turn := ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "long please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", b.String())}, State: ahpwire.TurnComplete}
	if _, err := h.SeedSession("ahp-session:/big", []ahpwire.Turn{turn}); err != nil {
		t.Fatal(err)
	}
	url, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ahpclient.New(ahpclient.Options{URL: url, StateDir: t.TempDir(), ExplicitAck: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r := &liveRig{t: t, host: h, client: c}
	t.Cleanup(func() {
		_ = c.Close()
		_ = h.Close()
		testkit.CheckNoLeak(t, before)
	})
	r.m = New(Options{Backend: liveBackend{c}, Host: "test", Dark: true, FrameInterval: time.Nanosecond,
		NoticeTTL: time.Nanosecond})
	r.m = send(t, r.m, teaSize(100, 30))
	r.m = send(t, r.m, openSessionMsg{Session: "ahp-session:/big"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.ready })

	refs := 0
	for _, p := range r.m.chat.ahp.Turns[0].ResponseParts {
		if p.Kind == ahpwire.PartContentRef {
			refs++
		} else if p.Kind == ahpwire.PartMarkdown && len(p.Content) > 1<<20 {
			t.Fatal("the finished big reply arrived inline")
		}
	}
	if refs < 2 {
		t.Fatalf("%d contentRef parts, want the reply in pages", refs)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(viewText(r.m), "THE-END-MARKER") {
		if time.Now().After(deadline) {
			t.Fatalf("the referenced reply's visible end never showed:\n%s", viewText(r.m))
		}
		r.m = send(t, r.m, frameMsg{})
	}
	if v := viewText(r.m); strings.Contains(v, "not loaded") {
		t.Fatalf("a reference shown as not loaded:\n%s", v)
	}
	if n, total := len(r.m.c.ext.loader.Texts()), refs; n == 0 || n > 16 {
		t.Fatalf("%d of %d pages loaded for one screen", n, total)
	}

	// An export holds the whole reply, the pages never shown included.
	dir := t.TempDir()
	done, ok := exportWithRefsCmd(context.Background(), liveBackend{c}, r.m.c.ext.loader.Texts(), dir, "x.md", "big",
		r.m.chat.allMessages())().(exportDoneMsg)
	if !ok || done.err != nil {
		t.Fatalf("export: %v", done.err)
	}
	data, err := os.ReadFile(done.path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "filler line of the long reply"); got < 20<<20/30 || !strings.Contains(string(data), "THE-END-MARKER") {
		t.Fatalf("export has %d filler lines of the reply", got)
	}
}
