package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
)

// BenchmarkSearchKeystroke measures Update for one key typed into the
// search box of a chat holding a finished 32 MiB reply (what
// `/demo big 32000000` leaves), each key changing the query: "match" types
// and erases the last letter of a query found on every line of the reply,
// "nomatch" of one found nowhere (the whole reply must be looked at). The
// commands a key returns (the search itself, when it runs off Update) are
// not run, so each key lands while the previous key's search is under way.
// ms/key-max is the worst key, ms/key-mean the mean.
func BenchmarkSearchKeystroke(b *testing.B) {
	for _, c := range []struct{ name, query string }{{"match", "lazy do"}, {"nomatch", "zebra crossin"}} {
		b.Run(c.name, func(b *testing.B) {
			m, _ := newTestModel(b, 120, 40)
			m = openChat(b, m, chatState([]ahpwire.Turn{finishedTurn("t1", "big please", burstText(32<<20))}, nil))
			m = send(b, m, keyPress("ctrl+f"))
			for _, r := range c.query {
				nm, _ := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
				m = nm.(Model)
			}
			var worst, total time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := tea.KeyPressMsg{Code: 'g', Text: "g"}
				if i%2 == 1 {
					k = tea.KeyPressMsg{Code: tea.KeyBackspace}
				}
				t0 := time.Now()
				nm, _ := m.Update(k)
				d := time.Since(t0)
				m = nm.(Model)
				worst, total = max(worst, d), total+d
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "ms/key-max")
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/key-mean")
			b.StopTimer()
			// Then one whole search, its slices run here as Bubble Tea
			// would run them: the worst Update applying a slice's hits
			// (the first one also jumps to the hit), and the whole time.
			m.chat.Extras.Search.Query = c.query
			var applyWorst time.Duration
			t0 := time.Now()
			slices := 0
			for cmd := m.chat.RunSearch(true); cmd != nil; slices++ {
				msg, ok := cmd().(chat.SearchFoundMsg)
				if !ok {
					b.Fatalf("search command gave %T", msg)
				}
				t1 := time.Now()
				nm, next := m.Update(msg)
				applyWorst = max(applyWorst, time.Since(t1))
				m, cmd = nm.(Model), next
			}
			whole := time.Since(t0)
			if hits := len(m.chat.Extras.Search.Hits); (c.name == "match") != (hits == 1) || m.chat.Extras.Search.Running {
				b.Fatalf("search ended with %d hits (running %v)", hits, m.chat.Extras.Search.Running)
			}
			b.ReportMetric(float64(applyWorst.Microseconds())/1000, "ms/apply-max")
			b.ReportMetric(float64(whole.Microseconds())/1000, "ms/search")
			b.ReportMetric(float64(slices), "slices")
		})
	}
}
