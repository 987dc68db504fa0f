package tui

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
)

// inlineBytes is the text the chat holds inline: AHP state's markdown
// parts and the transcript's text blocks.
func inlineBytes(m Model) (ahp, blocks int) {
	for _, t := range m.chat.AHP().Turns {
		for _, p := range t.ResponseParts {
			ahp += len(p.Content)
		}
	}
	for _, msg := range m.chat.State.Messages {
		for _, b := range msg.Blocks.All() {
			blocks += b.TextLen()
		}
	}
	return ahp, blocks
}

// bigReplyByRef sends "/demo big n" and waits until the finished reply was
// adopted by reference.
func bigReplyByRef(t *testing.T, r *liveRig, n string) {
	t.Helper()
	r.m = typeText(t, r.m, "/demo big "+n)
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("reply by reference", func(m Model) bool {
		return m.chat.State.Current == nil && lastReplyByRef(m) && m.chat.Extras.Refs.Inflight == 0
	})
}

// exported writes the chat as markdown the way "export" does (content
// references read from the cache or the host) and returns the file.
func exported(t *testing.T, r *liveRig) string {
	t.Helper()
	done, ok := chat.ExportWithRefsCmd(context.Background(), liveBackend{r.client}, r.m.c.Channels.Loader.Texts(), t.TempDir(), "x.md", "big",
		r.m.chat.AllMessages())().(chat.ExportDoneMsg)
	if !ok || done.Err != nil {
		t.Fatalf("export: %v", done.Err)
	}
	data, err := os.ReadFile(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestLiveLongReplyDropsInlineCopy (issue 12): after a 3 MB reply streamed
// over a real WebSocket from the embedded host, the chat re-reads the turn
// by reference and drops its inline text: AHP state and transcript hold
// no more than the adoption threshold, the end shows at once from the
// seeded pages (nothing read), the start and a middle page load when shown,
// an export gives the reply back byte for byte, and Options.ReleaseMemory
// runs once.
func TestLiveLongReplyDropsInlineCopy(t *testing.T) {
	const n = 3000000
	r := openInlineLiveChat(t)
	released := 0
	r.m.c.Release = func() { released++ } // Options.ReleaseMemory
	bigReplyByRef(t, r, "3000000")
	if released != 1 {
		t.Fatalf("ReleaseMemory ran %d times after the adoption, want 1", released)
	}
	if a, b := inlineBytes(r.m); a > chat.RefAdoptBytes || b > chat.RefAdoptBytes {
		t.Fatalf("after adoption %d bytes inline in AHP state, %d in blocks", a, b)
	}
	l := r.m.c.Channels.Loader
	if l.Inflight() != 0 || l.Used() == 0 || l.Used() > chat.RefSeedBytes+64<<10 {
		t.Fatalf("seeded cache: %d in flight, %d bytes", l.Inflight(), l.Used())
	}
	r.m = send(t, r.m, app.FrameMsg{})
	if v := viewText(r.m); !strings.Contains(v, "end of 3000000") || strings.Contains(v, "loading") {
		t.Fatalf("the reply's end is not on screen at once after adoption:\n%s", v)
	}

	reply := demo.BigReply(n)
	if got := exported(t, r); !strings.Contains(got, strings.TrimSpace(reply)) {
		t.Fatalf("export does not hold the reply byte for byte (%d bytes exported)", len(got))
	}
	// Copying the whole chat reads the pages like an export, but the
	// clipboard gets at most clipboardMax (terminals drop bigger OSC 52
	// copies): the reply's start, never its URIs. y on the last page
	// copies its text, not its URI.
	clip := ""
	for _, msg := range flatten(chat.CopyWithRefsCmd(context.Background(), liveBackend{r.client}, l.Texts(), "big", r.m.chat.AllMessages())) {
		if strings.Contains(strings.ToLower(fmtType(msg)), "clipboard") {
			clip = reflect.ValueOf(msg).String()
		}
	}
	if len(clip) > app.ClipboardMax || len(clip) < app.ClipboardMax-8 || !strings.Contains(clip, strings.TrimSpace(reply)[:64<<10]) {
		t.Fatalf("the chat copied as markdown does not hold the reply's start, capped (%d bytes)", len(clip))
	}
	r.m = send(t, r.m, keyPress("tab"))
	r.m.chat.Transcript.FocusNext(-1)
	if y := copied(t, r.m, "y"); !strings.HasSuffix(strings.TrimSpace(y), "-- end of 3000000 bytes --") || len(y) > 64<<10 {
		t.Fatalf("y on the last page copied %d bytes ending %q", len(y), y[max(0, len(y)-40):])
	}
	r.m.chat.Transcript.ClearFocus()
	r.m = send(t, r.m, keyPress("tab"))

	// The start: scroll to the top; the first page loads and shows.
	r.m.chat.Transcript.GotoTop()
	for i := 0; !strings.Contains(viewText(r.m), "A reply of exactly 3000000 bytes"); i++ {
		if i > 1000 {
			t.Fatalf("the reply's start never showed:\n%s", viewText(r.m))
		}
		r.m = send(t, r.m, app.FrameMsg{})
	}

	// A middle page: focus its block; it loads and shows its first line.
	msg := r.m.chat.State.Messages[len(r.m.chat.State.Messages)-1]
	mid := msg.Blocks.Len() / 2
	off := 0
	for _, b := range msg.Blocks.Slice()[:mid] {
		off += int(*b.Ref.SizeHint)
	}
	first := strings.TrimLeft(reply[off:], "\n")[:7] // the page's first line counter
	r.m = send(t, r.m, keyPress("tab"))
	for range mid + 2 { // the user message's block, then pages 0 … mid
		r.m.chat.Transcript.FocusNext(+1)
	}
	if want := chat.SpanID(render.KeyOf(msg, msg.Blocks.At(mid))); r.m.chat.Transcript.FocusBlockID != want {
		t.Fatalf("focused %q, want %q", r.m.chat.Transcript.FocusBlockID, want)
	}
	// Pages loading above the window move the focused block down; keep it
	// revealed (as a user pressing ] again would) while frames load what
	// shows.
	deadline := time.Now().Add(60 * time.Second) // a hang guard (a loaded machine under -race)
	for !strings.Contains(viewText(r.m), first) {
		if time.Now().After(deadline) {
			t.Fatalf("middle page (line %s) never showed:\n%s", first, viewText(r.m))
		}
		r.m.chat.Transcript.RevealFocus()
		r.m = send(t, r.m, app.FrameMsg{})
	}
}

// TestLiveLongReplyReconnectMidway: the link drops in the middle of a
// 3 MB reply; after the reconnect the reply completes, is adopted by
// reference, and exports byte for byte.
func TestLiveLongReplyReconnectMidway(t *testing.T) {
	r := openInlineLiveChat(t)
	r.m = typeText(t, r.m, "/demo big 3000000")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("reply streaming", func(m Model) bool {
		return m.chat.State.Current != nil && len(m.chat.State.Current.Text()) > 0
	})
	r.host.DropAll()
	r.pump("reconnecting", func(m Model) bool { return m.conn.Phase == ahpclient.Reconnecting })
	r.pump("reconnected", func(m Model) bool { return m.conn.Phase == ahpclient.Connected })
	t.Logf("recovered by %v", r.m.conn.Recovery)
	r.pump("reply by reference", func(m Model) bool { return m.chat.State.Current == nil && lastReplyByRef(m) })
	if got := exported(t, r); !strings.Contains(got, strings.TrimSpace(demo.BigReply(3000000))) {
		t.Fatalf("export after the reconnect does not hold the reply byte for byte (%d bytes)", len(got))
	}
	for _, tr := range r.m.chat.AHP().Turns {
		for _, p := range tr.ResponseParts {
			if p.Kind == ahpwire.PartMarkdown && len(p.Content) > chat.RefAdoptBytes {
				t.Fatalf("turn %s still holds %d bytes inline", tr.ID, len(p.Content))
			}
		}
	}
}

// TestLiveLongReplyKeepsOlderTurnsCursor: in a chat opened in a window
// (older turns behind a cursor), the re-read of a long reply neither
// loads nor forgets older turns: the cursor and the loaded turns stay,
// while scrolling up afterwards still pages older turns in.
func TestLiveLongReplyKeepsOlderTurnsCursor(t *testing.T) {
	r := newLiveRig(t, 0)
	if _, err := r.host.SeedSession("ahp-session:/long", ahphost.SyntheticTurns(120, 200)); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/long"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	cursor, turns := r.m.chat.Cursor, len(r.m.chat.AHP().Turns)
	if cursor == "" {
		t.Fatal("the whole chat came in the first window")
	}
	bigReplyByRef(t, r, "2000000")
	if r.m.chat.Cursor != cursor || len(r.m.chat.AHP().Turns) != turns+1 || r.m.chat.Extras.Refs.Inflight != 0 {
		t.Fatalf("after the re-read: cursor %q (was %q), %d turns (was %d + 1), %d re-reads in flight",
			r.m.chat.Cursor, cursor, len(r.m.chat.AHP().Turns), turns, r.m.chat.Extras.Refs.Inflight)
	}
	r.m.chat.Transcript.GotoTop()
	cmd := r.m.chat.MaybeFetchOlder()
	if cmd == nil {
		t.Fatal("no older turns asked for at the top")
	}
	cmd()
	r.pump("older turns", func(m Model) bool { return len(m.chat.AHP().Turns) > turns+1 })
}
