package tui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
)

// bigChat40MB is the state of a chat after two "/demo big 20000001"
// replies, as the host sends it now (byRef: each reply as contentRef pages
// of 64 KiB, the ahphost defaults) or did before (inline markdown).
func bigChat40MB(byRef bool) ahpwire.ChatState {
	reply := demo.BigReply(20000001)
	var ts []ahpwire.Turn
	for i := range 2 {
		tr := finishedTurn(fmt.Sprintf("t%d", i), "/demo big 20000001", reply)
		if byRef {
			var parts []ahpwire.ResponsePart
			for off, k := 0, 0; off < len(reply); off, k = off+64<<10, k+1 {
				n := int64(min(64<<10, len(reply)-off))
				parts = append(parts, ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ahpwire.ContentRef{
					URI: fmt.Sprintf("ahptui-part:/c/t%d/0/%d", i, k), SizeHint: &n, ContentType: "text/markdown"}})
			}
			tr.ResponseParts = parts
		}
		ts = append(ts, tr)
	}
	return chatState(ts, nil)
}

// BenchmarkReopen40MBChat measures reopening a 40 MB chat (issue 12
// budget: first frame ≤ 300 ms after the snapshot arrives): decoding the
// snapshot event, projecting it and drawing the first frame with cold
// caches. "refs" is what the host sends now; "inline" the old snapshot
// (which a 32 MiB client could not even receive).
func BenchmarkReopen40MBChat(b *testing.B) {
	for _, byRef := range []bool{true, false} {
		name := "refs"
		if !byRef {
			name = "inline"
		}
		b.Run(name, func(b *testing.B) {
			snap, err := ahpwire.NewSnapshot(testChat, bigChat40MB(byRef), 1)
			if err != nil {
				b.Fatal(err)
			}
			var decode, update time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m, _ := newTestModel(b, 120, 40)
				m = send(b, m, picker.OpenSessionMsg{Session: testSession})
				ss := ahpwire.SessionState{Provider: "demo", Title: "bench", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat}
				m = send(b, m, snapshotEvent(b, testSession, ss))
				// The snapshot arrives as bytes: decoding it (in the event
				// pump, off Update) is part of the cost.
				raw := append([]byte(nil), snap.State...)
				b.StartTimer()
				t0 := time.Now()
				st := ahpwire.Snapshot{Resource: snap.Resource, State: raw, FromSeq: snap.FromSeq}
				ev := eventMsg(ahpclient.SnapshotEvent{Snapshot: st, Reason: ahpclient.SnapshotSubscribe}, nil)
				t1 := time.Now()
				nm, _ := m.Update(ev)
				v := ansi.Strip(nm.(Model).View().Content)
				decode, update = decode+t1.Sub(t0), update+time.Since(t1)
				if !strings.Contains(v, "end of 20000001 bytes") && !strings.Contains(v, "ahptui-part:/c/t1/0/305") {
					b.Fatalf("first frame shows neither the reply's end nor its last reference:\n%s", v)
				}
			}
			b.ReportMetric(float64(len(snap.State))/1e6, "MB-snapshot")
			b.ReportMetric(float64(decode.Milliseconds())/float64(b.N), "ms-decode-in-pump")
			b.ReportMetric(float64(update.Milliseconds())/float64(b.N), "ms-update-and-view")
		})
	}
}

// heapMB is the live heap after two collections, in MB: the bytes of live
// objects (HeapAlloc). One collection, as this used to do, leaves what
// sync.Pools hold (their victim caches: e.g. encoding/json's buffers of the
// last 4 MiB deltas) to the next one, which then credited it to whatever
// was dropped in between; HeapInuse, which this used to read, also counts
// the free slots of partly used spans.
func heapMB() float64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkBigReplyMemory measures the live heap a 32 MB reply leaves in
// one process holding the embedded host, the client and the TUI (as
// `ahptui demo` does), split by dropping the parts in turn: render-MB is
// the renderer's caches plus the transcript's rendered lines, client-MB
// the chat model's AHP state and lifecycle blocks, host-conn-MB what
// stays (host store: resources and replay log; client connection
// buffers). Issue 12 budget: RSS growth ≤ 128 MB (see
// scripts/rss-big-reply.sh; RSS adds the GC's headroom to the live heap).
func BenchmarkBigReplyMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := openLiveChat(b)
		base := heapMB()
		r.m = typeText(b, r.m, "/demo big 32000000")
		r.m = send(b, r.m, keyPress("enter"))
		r.pump("big reply", func(m Model) bool {
			return m.chat.State.Current == nil && strings.Contains(viewText(m), "end of 32000000")
		})
		// The client then re-reads the finished reply by reference and
		// drops its inline copy (chat/refturns.go).
		r.pump("reply by reference", func(m Model) bool {
			return len(m.chat.Extras.Refs.Asked) == 0 || lastReplyByRef(m)
		})
		all := heapMB()
		r.m.chat.Transcript = chat.Transcript{}
		r.m.c.Renderer = nil
		noRender := heapMB()
		r.m = Model{}
		noClient := heapMB()
		b.ReportMetric(all-base, "total-MB")
		b.ReportMetric(all-noRender, "render-MB")
		b.ReportMetric(noRender-noClient, "client-MB")
		b.ReportMetric(noClient-base, "host-conn-MB")
	}
}

// lastReplyByRef reports whether the newest finished assistant message
// shows its text as content references.
func lastReplyByRef(m Model) bool {
	ms := m.chat.State.Messages
	if len(ms) == 0 {
		return false
	}
	for _, b := range ms[len(ms)-1].Blocks.All() {
		if b.Kind == reducer.KindContentRef {
			return true
		}
	}
	return false
}
