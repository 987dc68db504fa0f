package tui

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/chat"
)

// searchResults runs cmd (expanding batches) and returns the search
// reports among its messages, without feeding anything back; other
// commands (the cursor's blink) are given up on.
func searchResults(t *testing.T, cmd tea.Cmd) []chat.SearchFoundMsg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	msg, ok := runWithin(cmd, 2*time.Second)
	if !ok {
		return nil
	}
	switch msg := msg.(type) {
	case chat.SearchFoundMsg:
		return []chat.SearchFoundMsg{msg}
	case tea.BatchMsg:
		var out []chat.SearchFoundMsg
		for _, c := range msg {
			out = append(out, searchResults(t, c)...)
		}
		return out
	}
	return nil
}

// update is one Update without running the commands it returns.
func update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	nm, cmd := m.Update(msg)
	return nm.(Model), cmd
}

// bigAnswers is a chat of n finished turns whose answers are size bytes
// of filler ending in "needle <i>".
func bigAnswers(n, size int) ahpwire.ChatState {
	var turns []ahpwire.Turn
	for i := range n {
		text := strings.Repeat("hay line without the word we look for\n", size/38) + "needle " + string(rune('a'+i))
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "question", text))
	}
	return chatState(turns, nil)
}

// TestSearchRunsOffUpdateAndStreamsHits: a key in the search box returns at
// once with the search under way ("searching… 0 hits"); the hits of 9 MB
// of answers arrive slice by slice (the first before the last answer was
// looked at), the first one jumps the transcript to its match, and the
// count ends at every hit.
func TestSearchRunsOffUpdateAndStreamsHits(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, bigAnswers(3, 3<<20))
	m = send(t, m, keyPress("ctrl+f"))
	for _, r := range "needl" {
		m, _ = update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m, cmd := update(m, tea.KeyPressMsg{Code: 'e', Text: "e"})
	if len(m.chat.Extras.Search.Hits) != 0 || !strings.Contains(viewText(m), "searching… 0 hits") {
		t.Fatalf("the key did not return with the search under way:\n%s", viewText(m))
	}
	var reports int
	for {
		rs := searchResults(t, cmd)
		if len(rs) != 1 {
			t.Fatalf("%d search reports from one command", len(rs))
		}
		reports++
		m, cmd = update(m, rs[0])
		if cmd == nil {
			break
		}
		if reports == 1 {
			if n := len(m.chat.Extras.Search.Hits); n < 1 || n > 2 || !strings.Contains(viewText(m), "1/"+strconv.Itoa(n)+" · searching…") {
				t.Fatalf("after the first slice: %d hits\n%s", n, viewText(m))
			}
			if v := viewText(m); !strings.Contains(v, "needle a") {
				t.Fatalf("the first hit was not revealed:\n%s", v)
			}
		}
	}
	if reports < 2 {
		t.Fatalf("9 MB searched in %d slice(s): want hits streamed in several", reports)
	}
	s := m.chat.Extras.Search
	if len(s.Hits) != 3 || s.Running || !strings.Contains(viewText(m), "1/3 · enter next") {
		t.Fatalf("search ended with %d hits (running %v):\n%s", len(s.Hits), s.Running, viewText(m))
	}
	m = send(t, m, keyPress("enter"))
	m = send(t, m, keyPress("enter"))
	if v := viewText(m); !strings.Contains(v, "needle c") || !strings.Contains(v, "3/3") {
		t.Fatalf("stepping did not reach the last hit:\n%s", v)
	}
}

// TestSearchDropsStaleResults: hits computed for a query that has since
// changed are never applied (not counted, not jumped to), a search whose
// query changed stops early, and closing the bar cancels the search too.
func TestSearchDropsStaleResults(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, bigAnswers(2, 64<<10))
	m = send(t, m, keyPress("ctrl+f"))
	m, old := update(m, tea.KeyPressMsg{Code: 'n', Text: "n"}) // "n": in every answer
	stale := searchResults(t, old)
	if len(stale) != 1 || len(stale[0].Hits) == 0 {
		t.Fatalf("the first query's slice: %+v", stale)
	}
	top := m.chat.Transcript.TopItem
	m, cmd := update(m, tea.KeyPressMsg{Code: 'q', Text: "q"}) // "nq": nowhere
	m, _ = update(m, stale[0])
	if n := len(m.chat.Extras.Search.Hits); n != 0 || m.chat.Transcript.TopItem != top {
		t.Fatalf("a stale result was applied: %d hits, top %d → %d", n, top, m.chat.Transcript.TopItem)
	}
	for _, r := range searchResults(t, cmd) {
		m, cmd = update(m, r)
		for _, r := range searchResults(t, cmd) {
			m, _ = update(m, r)
		}
	}
	if s := m.chat.Extras.Search; len(s.Hits) != 0 || s.Running || !strings.Contains(viewText(m), "no matches") {
		t.Fatalf("the new query's search: %d hits, running %v", len(s.Hits), s.Running)
	}

	// A search cancelled while its slice runs stops without matching.
	m, cmd = update(m, tea.KeyPressMsg{Code: tea.KeyBackspace}) // "n" again
	run := m.chat.Extras.Search.Run
	m, _ = update(m, keyPress("esc"))
	if !run.Stop.Load() {
		t.Fatal("closing the search did not cancel it")
	}
	for _, r := range searchResults(t, cmd) {
		if len(r.Hits) != 0 || r.Rest != nil {
			t.Fatalf("a cancelled slice went on matching: %d hits, rest %v", len(r.Hits), r.Rest != nil)
		}
		m, _ = update(m, r)
	}
	if n := len(m.chat.Extras.Search.Hits); n != 0 {
		t.Fatalf("a cancelled search applied %d hits", n)
	}
	// Reopening runs the query again.
	m = send(t, m, keyPress("ctrl+f"))
	if n := len(m.chat.Extras.Search.Hits); n != 4 { // both questions and both answers
		t.Fatalf("reopened search found %d hits, want 4", n)
	}
}

// TestSearchTaskWindowsOverlap: a match straddling two scan windows, or two
// slices, is found, and one block gives one hit however often it matches.
func TestSearchTaskWindowsOverlap(t *testing.T) {
	text := strings.Repeat("x", chat.SearchWindow-3) + "NeedLE" + strings.Repeat("y", chat.SearchSlice) + "needle needle"
	msgs := reducer.Project(chatState([]ahpwire.Turn{finishedTurn("t1", "q", text)}, nil)).Messages
	hits := searchAll(msgs, "needle")
	if len(hits) != 1 || hits[0].Frac <= 0 || hits[0].Frac > 0.2 {
		t.Fatalf("hits %+v", hits)
	}
	hits = searchAll(msgs, "yneedle")
	if len(hits) != 1 || hits[0].Frac < 0.8 {
		t.Fatalf("a match after a slice boundary: %+v", hits)
	}
}

// TestSearchReadsReferences: a content reference's text is read when the
// search reaches it (from the loader's texts or the host: refSource); a
// page that cannot be read counts as failed, not as a hit; a match across
// two pages of one message is found, in the page it starts in.
func TestSearchReadsReferences(t *testing.T) {
	ref := func(id string, i int) *reducer.Block {
		return &reducer.Block{ID: id, Index: i, Kind: reducer.KindContentRef, Ref: &ahpwire.ContentRef{URI: "ahp-res:/big/" + id}}
	}
	msgs := []*reducer.Message{{ID: "m1", Blocks: reducer.BlocksOf(ref("p1", 0), ref("p2", 1), ref("p3", 2))}}
	find := func(q string, pages map[string]string) (hits []chat.SearchHit, read, failed int) {
		docs, _ := chat.CaptureDocs(msgs, 0)
		task := &chat.SearchTask{Run: chat.NewSearchRun(context.Background()), Query: q, Docs: docs,
			Read: chat.RefSource(nil, pages)}
		for {
			r := task.Slice()
			hits, read, failed = append(hits, r.Hits...), read+r.Pages, failed+r.Failed
			if r.Rest == nil {
				return
			}
		}
	}
	pages := map[string]string{"ahp-res:/big/p1": "hay hay nee", "ahp-res:/big/p2": "dle hay Needle", "ahp-res:/big/p3": "hay"}
	hits, read, failed := find("needle", pages)
	if len(hits) != 2 || hits[0].Block != "p1" || hits[0].Ref != "ahp-res:/big/p1" || hits[1].Block != "p2" || read != 3 || failed != 0 {
		t.Fatalf("hits %+v, %d pages read, %d failed", hits, read, failed)
	}
	delete(pages, "ahp-res:/big/p2")
	if hits, read, failed = find("hay", pages); len(hits) != 2 || read != 3 || failed != 1 {
		t.Fatalf("with a page missing: hits %+v, %d pages read, %d failed", hits, read, failed)
	}
	if hits, _, _ = find("needle", pages); len(hits) != 0 {
		t.Fatalf("a match across a page that could not be read: %+v", hits)
	}
}
