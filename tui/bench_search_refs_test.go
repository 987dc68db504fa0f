package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
)

// BenchmarkSearchKeystrokeRefs measures Update for one key typed into the
// search box of a chat whose finished 32 MiB reply the embedded host keeps
// as 512 contentRef pages of 64 KiB (a reopened `/demo big 32000000`),
// over a real WebSocket, while the previous key's search reads and matches
// pages on another goroutine (its command runs concurrently with the
// timed Update, as Bubble Tea would run it). Each key changes the query
// ("zebra crossin" + g / backspace: found nowhere, so every page is
// read), which cancels that search. ms/key-max is the worst key,
// ms/key-mean the mean. Then one whole search is run: ms/apply-max is the
// worst Update applying a page's report (ms/apply-mean the mean), ms/search the whole search and
// pages/s its read rate (resourceRead + match, one page at a time).
func BenchmarkSearchKeystrokeRefs(b *testing.B) {
	r, pages := openBigRefsChat(b)
	m := send(b, r.m, keyPress("ctrl+f"))
	var cmd tea.Cmd
	for _, c := range "zebra crossin" {
		m, cmd = update(m, tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	var worst, total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		done := make(chan struct{})
		go func(c tea.Cmd) { // the previous key's search, under way
			defer close(done)
			for _, msg := range flattenWithin(c) {
				if f, ok := msg.(chat.SearchFoundMsg); ok && f.Rest != nil {
					f.Rest.Slice()
				}
			}
		}(cmd)
		time.Sleep(time.Millisecond) // let it reach a page read
		k := tea.KeyPressMsg{Code: 'g', Text: "g"}
		if i%2 == 1 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		t0 := time.Now()
		m, cmd = update(m, k)
		d := time.Since(t0)
		worst, total = max(worst, d), total+d
		<-done
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms/key-max")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/key-mean")
	b.StopTimer()

	m.chat.Extras.Search.Query = "zebra crossing"
	var applyWorst, applyTotal time.Duration
	applies := 0
	t0 := time.Now()
	for c := m.chat.RunSearch(false); c != nil; {
		msg, ok := c().(chat.SearchFoundMsg)
		if !ok {
			b.Fatalf("search command gave %T", msg)
		}
		t1 := time.Now()
		m, c = update(m, msg)
		d := time.Since(t1)
		applyWorst, applyTotal, applies = max(applyWorst, d), applyTotal+d, applies+1
		c = searchCmdOf(c)
	}
	whole := time.Since(t0)
	s := m.chat.Extras.Search
	if s.Running || s.PagesDone != pages || s.Failed != 0 || len(s.Hits) != 0 {
		b.Fatalf("search ended at page %d/%d, %d failed, %d hits (running %v)", s.PagesDone, pages, s.Failed, len(s.Hits), s.Running)
	}
	if !strings.Contains(viewText(m), "no matches") {
		b.Fatalf("bar after the search:\n%s", viewText(m))
	}
	b.ReportMetric(float64(applyWorst.Microseconds())/1000, "ms/apply-max")
	b.ReportMetric(float64(applyTotal.Microseconds())/1000/float64(max(1, applies)), "ms/apply-mean")
	b.ReportMetric(float64(whole.Microseconds())/1000, "ms/search")
	b.ReportMetric(float64(pages)/whole.Seconds(), "pages/s")
}

// openBigRefsChat opens, over a real WebSocket to the embedded host, a
// chat whose finished 32 MiB reply the host keeps as contentRef pages of
// 64 KiB (a reopened `/demo big 32000000`), and returns the rig and the
// number of pages (at least 500).
func openBigRefsChat(b *testing.B) (*liveRig, int) {
	const size = 32 << 20
	r := startLiveRig(b, ahphost.Options{Dir: b.TempDir(), NoToken: true})
	turn := ahpwire.Turn{ID: "big", Message: ahpwire.ChatMessage{Text: "big please"},
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("p1", burstText(size))}, State: ahpwire.TurnComplete}
	if _, err := r.host.SeedSession("ahp-session:/big", []ahpwire.Turn{turn}); err != nil {
		b.Fatal(err)
	}
	r.m = send(b, r.m, picker.OpenSessionMsg{Session: "ahp-session:/big"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	pages := chat.CountSearchRefs(r.m.chat.AllMessages())
	if pages < 500 {
		b.Fatalf("the reply came as %d pages", pages)
	}
	return r, pages
}

// flattenWithin runs cmd, expanding batches, and returns its messages;
// commands that do not answer within a second (timers) are given up on.
func flattenWithin(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg, ok := runWithin(cmd, time.Second)
	if !ok {
		return nil
	}
	if bm, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range bm {
			out = append(out, flattenWithin(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// searchCmdOf is the search's next slice among the commands an Update
// returned (content loads and the like are dropped), or nil.
func searchCmdOf(cmd tea.Cmd) tea.Cmd {
	for _, msg := range flattenWithin(cmd) {
		if f, ok := msg.(chat.SearchFoundMsg); ok {
			return func() tea.Msg { return f }
		}
	}
	return nil
}
