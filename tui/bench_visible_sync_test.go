package tui

import "testing"

// BenchmarkSyncExtRefs measures the root model's syncExt, which runs after
// every Update, in a chat whose finished 32 MiB reply the embedded host
// keeps as 512 contentRef pages (a reopened `/demo big 32000000`) with the
// end of the reply on screen: the terminals and content references of
// the visible messages are walked and the loads near the window kept.
func BenchmarkSyncExtRefs(b *testing.B) {
	r, _ := openBigRefsChat(b)
	m := r.m
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.syncExt()
	}
}
