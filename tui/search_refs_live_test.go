package tui

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
)

// refPage is the host's page size in these tests; the reply is refPages
// pages of one long line (no newline, so every page is cut at exactly
// refPage bytes).
const (
	refPage  = 16 << 10
	refPages = 40
)

// countingBackend is the real client, with every resourceRead counted
// (loader and search alike) and the page gone asked for under a URI the
// host does not have, so the host itself answers NotFound.
type countingBackend struct {
	liveBackend
	reads atomic.Int32
	mu    sync.Mutex
	gone  string
}

func (b *countingBackend) ResourceRead(ctx context.Context, uri, enc string) (ahpclient.Resource, error) {
	b.reads.Add(1)
	b.mu.Lock()
	if uri == b.gone {
		uri += "-evicted"
	}
	b.mu.Unlock()
	return b.Client.ResourceRead(ctx, uri, enc)
}

// pagedReply is the reply of openPagedReply: refPages pages of filler
// words with MIDDLE_NEEDLE in the middle of page refPages/2 and
// BOUNDARYMARK across the end of page 3 ("BOUNDA" | "RYMARK").
// (An underscore, not a hyphen: the middle page lies past PlainAfter of the
// reply, so it is laid out plain as the streamed reply was, and plain
// wrapping may break a line after a hyphen.)
func pagedReply() string {
	const word = "filler words of the long reply "
	b := []byte(strings.Repeat(word, refPages*refPage/len(word)+1)[:refPages*refPage-len(" THEENDMARKER")])
	copy(b[refPages/2*refPage+refPage/2:], "MIDDLE_NEEDLE")
	copy(b[4*refPage-6:], "BOUNDARYMARK")
	return string(b) + " THEENDMARKER"
}

// openPagedReply opens, over a real WebSocket to the embedded host, a chat
// whose reply the host keeps as refPages contentRef pages, through a
// countingBackend; it returns once the reply's end shows.
func openPagedReply(t *testing.T) (*liveRig, *countingBackend, *reducer.Message) {
	t.Helper()
	r := startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: refPage})
	cb := &countingBackend{liveBackend: liveBackend{r.client}}
	r.m = newModel(Options{Backend: cb, Host: "test", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	r.m = send(t, r.m, teaSize(100, 30))
	turn := ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "long please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", pagedReply())}, State: ahpwire.TurnComplete}
	if _, err := r.host.SeedSession("ahp-session:/paged", []ahpwire.Turn{turn}); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/paged"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	// The snapshot's window starts after the large turn; fetchTurns pages
	// it in by reference (issue 21).
	r.pump("large turn paged in", func(m Model) bool { return len(m.chat.AHP().Turns) > 0 })
	deadline := time.Now().Add(60 * time.Second) // a hang guard (a loaded machine under -race)
	for !strings.Contains(viewText(r.m), "THEENDMARKER") {
		if time.Now().After(deadline) {
			t.Fatalf("the reply's end never showed:\n%s", viewText(r.m))
		}
		r.m = send(t, r.m, app.FrameMsg{})
	}
	msg := r.m.chat.State.Messages[len(r.m.chat.State.Messages)-1]
	if msg.Blocks.Len() != refPages {
		t.Fatalf("the reply came as %d blocks, want %d pages", msg.Blocks.Len(), refPages)
	}
	for i, b := range msg.Blocks.All() {
		if b.Kind != reducer.KindContentRef || b.Ref == nil || b.Ref.SizeHint == nil || *b.Ref.SizeHint != refPage {
			t.Fatalf("block %d is not a %d-byte page: %+v", i, refPage, b)
		}
	}
	return r, cb, msg
}

// drive runs cmd and every command the model returns for our messages
// (search slices, content loads), feeding their messages back, until none
// is left; each is given wait to answer (timers are given up on). seen is
// called after each Update.
func drive(t *testing.T, m Model, cmd tea.Cmd, seen func(Model)) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 5000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, ok := runWithin(c, 2*time.Second)
		if !ok {
			continue
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil || !isOurMsg(msg) {
			continue
		}
		var next tea.Cmd
		m, next = update(m, msg)
		if seen != nil {
			seen(m)
		}
		queue = append(queue, next)
	}
	return m
}

// searchFor opens the search bar and types q, running what each key
// starts; progress records every count the bar showed.
func searchFor(t *testing.T, m Model, q string, progress *[]string) Model {
	t.Helper()
	m = send(t, m, keyPress("ctrl+f"))
	for _, r := range q {
		var cmd tea.Cmd
		m, cmd = update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
		m = drive(t, m, cmd, func(m Model) {
			if progress != nil {
				*progress = append(*progress, m.chat.Extras.Search.View(&m.c.Styles, 200)[0])
			}
		})
	}
	return m
}

// TestLiveSearchReadsUnloadedPages (issue 12): over a real WebSocket to
// the embedded host, a search finds a hit that only a page never shown
// holds (read by the search, page by page, with its progress on the bar),
// without caching the pages it read; jumping there loads the page the
// usual way and shows the match. A match across two pages is found too.
func TestLiveSearchReadsUnloadedPages(t *testing.T) {
	r, cb, msg := openPagedReply(t)
	mid := msg.Blocks.At(refPages / 2)
	if _, ok := r.m.c.Channels.Loader.Texts()[mid.Ref.URI]; ok {
		t.Fatal("the middle page is loaded before the search")
	}
	before, cached := cb.reads.Load(), len(r.m.c.Channels.Loader.Texts())
	var progress []string
	r.m = send(t, r.m, keyPress("ctrl+f"))
	r.m.chat.Extras.Search.Query = "middle_needle"
	r.m = drive(t, r.m, r.m.chat.RunSearch(false), func(m Model) {
		progress = append(progress, m.chat.Extras.Search.View(&m.c.Styles, 200)[0])
	})
	s := r.m.chat.Extras.Search
	if len(s.Hits) != 1 || s.Hits[0].Ref != mid.Ref.URI || s.Running || s.Failed != 0 || s.PagesDone != refPages {
		t.Fatalf("hits %+v (running %v, %d pages, %d failed)", s.Hits, s.Running, s.PagesDone, s.Failed)
	}
	if n := cb.reads.Load() - before; n < int32(refPages-cached) {
		t.Fatalf("%d resourceReads for a search of %d pages, %d of them loaded", n, refPages, cached)
	}
	sawPage := false
	for _, p := range progress {
		sawPage = sawPage || strings.Contains(p, "searching… page ") && strings.Contains(p, "/40 · ")
	}
	if !sawPage {
		t.Fatalf("no page progress shown while searching: %q", progress)
	}
	l := r.m.c.Channels.Loader
	if _, ok := l.Texts()[mid.Ref.URI]; ok || len(l.Texts()) != cached {
		t.Fatalf("the search cached pages: %d cached, %d before", len(l.Texts()), cached)
	}
	// Enter jumps to the hit: its page loads as it comes into view and
	// the match shows.
	var cmd tea.Cmd
	r.m, cmd = update(r.m, keyPress("enter"))
	r.m = drive(t, r.m, cmd, nil)
	if v := viewText(r.m); !strings.Contains(v, "MIDDLE_NEEDLE") || !strings.Contains(v, "1/1") {
		t.Fatalf("the hit in the unloaded page is not shown:\n%s", v)
	}
	if l.Used() > l.Budget() {
		t.Fatalf("cache over budget: %d > %d", l.Used(), l.Budget())
	}

	// A match across the end of page 3: found once, in page 3, and shown
	// with both halves.
	r.m = send(t, r.m, keyPress("esc"))
	r.m.chat.Extras.Search.Query = ""
	r.m = searchFor(t, r.m, "boundarymark", nil)
	s = r.m.chat.Extras.Search
	if len(s.Hits) != 1 || s.Hits[0].Ref != msg.Blocks.At(3).Ref.URI {
		t.Fatalf("hits of a match across pages: %+v", s.Hits)
	}
	if v := viewText(r.m); !strings.Contains(v, "BOUNDA") || !strings.Contains(v, "RYMARK") {
		t.Fatalf("the match across pages is not shown:\n%s", v)
	}
}

// TestLiveSearchMissingPage: a page the host no longer has (NotFound) is
// reported on the bar and the other pages are still searched; with the
// connection closed, the pages not loaded are reported and the loaded
// ones searched.
func TestLiveSearchMissingPage(t *testing.T) {
	r, cb, msg := openPagedReply(t)
	cb.mu.Lock()
	cb.gone = msg.Blocks.At(5).Ref.URI
	cb.mu.Unlock()
	r.m = searchFor(t, r.m, "filler words", nil)
	s := r.m.chat.Extras.Search
	if len(s.Hits) != refPages-1 || s.Failed != 1 || s.Running {
		t.Fatalf("%d hits (want %d), %d pages failed (running %v)", len(s.Hits), refPages-1, s.Failed, s.Running)
	}
	for _, h := range s.Hits {
		if h.Ref == msg.Blocks.At(5).Ref.URI {
			t.Fatalf("a hit in the page that could not be read: %+v", h)
		}
	}
	if v := viewText(r.m); !strings.Contains(v, "1 page could not be searched") {
		t.Fatalf("the missing page is not reported:\n%s", v)
	}

	// The connection gone: every page not loaded fails at once, the
	// loaded ones are still searched, and the search ends.
	r.m = send(t, r.m, keyPress("esc"))
	if err := r.client.Close(); err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, b := range msg.Blocks.All() {
		if _, ok := r.m.c.Channels.Loader.Texts()[b.Ref.URI]; ok {
			loaded++
		}
	}
	r.m.chat.Extras.Search.Query = ""
	r.m = searchFor(t, r.m, "reply", nil)
	s = r.m.chat.Extras.Search
	if loaded == 0 || s.Running || s.Failed != refPages-loaded || len(s.Hits) != loaded {
		t.Fatalf("connection closed, %d pages loaded: %d hits, %d failed (running %v)", loaded, len(s.Hits), s.Failed, s.Running)
	}
	if v := viewText(r.m); !strings.Contains(v, uikit.Plural(refPages-loaded, "page")+" could not be searched") {
		t.Fatalf("the pages not searched are not reported:\n%s", v)
	}
}

// TestLiveSearchCancelStopsReads: once the query changes or the bar
// closes, the search issues no further resourceRead.
func TestLiveSearchCancelStopsReads(t *testing.T) {
	r, cb, _ := openPagedReply(t)
	for _, stop := range []string{"esc", "query"} {
		r.m.chat.Extras.Search.Query = ""
		r.m = send(t, r.m, keyPress("ctrl+f"))
		var cmd tea.Cmd
		r.m, cmd = update(r.m, tea.KeyPressMsg{Code: 'z', Text: "z"}) // found nowhere: every page is read
		for range 3 {
			rs := searchResults(t, cmd)
			if len(rs) != 1 || rs[0].Pages != 1 || rs[0].Rest == nil {
				t.Fatalf("%s: a slice of the search: %+v", stop, rs)
			}
			r.m, cmd = update(r.m, rs[0])
		}
		if s := r.m.chat.Extras.Search; s.PagesDone != 3 || !strings.Contains(viewText(r.m), "searching… page 3/40 · 0 hits") {
			t.Fatalf("%s: progress after 3 pages: %d\n%s", stop, s.PagesDone, viewText(r.m))
		}
		reads := cb.reads.Load()
		if stop == "esc" {
			r.m, _ = update(r.m, keyPress("esc"))
		} else {
			r.m, _ = update(r.m, tea.KeyPressMsg{Code: 'q', Text: "q"})
			r.m.chat.Extras.Search.Cancel() // the new query's search is not run here
		}
		rs := searchResults(t, cmd) // the old search's next slice
		if len(rs) != 1 || rs[0].Rest != nil || rs[0].Pages != 0 || len(rs[0].Hits) != 0 {
			t.Fatalf("%s: the cancelled search went on: %+v", stop, rs)
		}
		if n := cb.reads.Load(); n != reads {
			t.Fatalf("%s: %d resourceReads after the search was cancelled", stop, n-reads)
		}
		r.m, _ = update(r.m, rs[0])
		r.m = send(t, r.m, keyPress("esc"))
	}
}

// TestLiveSearchReadsPagesOnceAfterPaging: in a chat opened in a window
// whose newest reply is kept by reference, a search first pages the older
// turns in without reading any page, then reads each page not loaded
// once, and finds the hit only a page holds.
func TestLiveSearchReadsPagesOnceAfterPaging(t *testing.T) {
	r := startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: refPage})
	cb := &countingBackend{liveBackend: liveBackend{r.client}}
	r.m = newModel(Options{Backend: cb, Host: "test", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	r.m = send(t, r.m, teaSize(100, 30))
	reply := strings.Repeat("filler words of the long reply ", 6*refPage/31)
	reply = reply[:3*refPage] + "PAGED-NEEDLE" + reply[3*refPage:]
	turns := append(ahphost.SyntheticTurns(300, 400), ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "long please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", reply)}, State: ahpwire.TurnComplete})
	if _, err := r.host.SeedSession("ahp-session:/both", turns); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/both"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	r.pump("large turn paged in", func(m Model) bool { return len(m.chat.AHP().Turns) > 0 && !m.chat.Fetching })
	if r.m.chat.Cursor == "" {
		t.Fatal("the whole chat came in the first window: nothing to page")
	}
	msg := r.m.chat.State.Messages[len(r.m.chat.State.Messages)-1]
	pages := chat.CountSearchRefs([]*reducer.Message{msg})
	if pages < 5 {
		t.Fatalf("the reply came as %d pages", pages)
	}
	r.m = send(t, r.m, app.FrameMsg{})
	loaded := 0
	for _, b := range msg.Blocks.All() {
		if _, ok := r.m.c.Channels.Loader.Texts()[b.Ref.URI]; ok {
			loaded++
		}
	}
	before := cb.reads.Load()
	r.m = send(t, r.m, keyPress("ctrl+f"))
	r.m = typeText(t, r.m, "paged-needle")
	if n := cb.reads.Load() - before; n != 0 || !r.m.chat.Extras.Search.Paging {
		t.Fatalf("%d pages read while older turns are paged in (paging %v)", n, r.m.chat.Extras.Search.Paging)
	}
	r.pump("the search over every turn and page", func(m Model) bool {
		s := m.chat.Extras.Search
		return !s.Paging && !s.Running && len(s.Hits) > 0
	})
	s := r.m.chat.Extras.Search
	if n := cb.reads.Load() - before; len(s.Hits) != 1 || s.PagesDone != pages || s.Failed != 0 || n < int32(pages-loaded) || n > int32(pages+4) {
		t.Fatalf("%d hits, %d/%d pages, %d failed, %d reads (%d pages were loaded)", len(s.Hits), s.PagesDone, pages, s.Failed, n, loaded)
	}
	if !strings.Contains(viewText(r.m), "PAGED-NEEDLE") {
		t.Fatalf("the hit is not shown:\n%s", viewText(r.m))
	}
}

// TestLiveSearchReadsToolOutputPages: a long tool output the host keeps as
// resource pages is searched too; the hit is in the tool's block, which
// the jump expands, and its page loads and shows the match.
func TestLiveSearchReadsToolOutputPages(t *testing.T) {
	r := startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, LargePartBytes: 32 << 10, ResourcePageBytes: 8 << 10})
	lines := make([]string, 3000)
	for i := range lines {
		lines[i] = "a log line of the tool"
	}
	lines[1500] = "TOOL-NEEDLE found here"
	ok := true
	tc := ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "run", DisplayName: "Run",
		Success: &ok, Content: []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: strings.Join(lines, "\n")}}}
	turn := ahpwire.Turn{ID: "t1", Message: ahpwire.ChatMessage{Text: "run it"}, State: ahpwire.TurnComplete,
		ResponseParts: []ahpwire.ResponsePart{{Kind: ahpwire.PartToolCall, ToolCall: &tc}, ahpwire.MarkdownPart("p2", "done")}}
	if _, err := r.host.SeedSession("ahp-session:/tool", []ahpwire.Turn{turn}); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/tool"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	r.pump("large turn paged in", func(m Model) bool { return len(m.chat.AHP().Turns) > 0 && !m.chat.Fetching })
	msg := r.m.chat.State.Messages[len(r.m.chat.State.Messages)-1]
	pages := chat.CountSearchRefs([]*reducer.Message{msg})
	if pages < 4 {
		t.Fatalf("the tool output came as %d pages", pages)
	}
	r.m = searchFor(t, r.m, "tool-needle", nil)
	s := r.m.chat.Extras.Search
	if len(s.Hits) != 1 || s.Hits[0].Ref == "" || s.PagesDone != pages || s.Failed != 0 {
		t.Fatalf("hits %+v, %d/%d pages, %d failed", s.Hits, s.PagesDone, pages, s.Failed)
	}
	if v := viewText(r.m); !strings.Contains(v, "TOOL-NEEDLE found here") {
		t.Fatalf("the hit in the tool's output is not shown:\n%s", v)
	}
}
