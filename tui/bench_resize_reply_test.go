package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
)

// BenchmarkResizeAfterReply (issue 22): one resize right after a long
// /demo stream reply (varied markdown) has finished, from the embedded
// host over a real WebSocket: Update of the new size and the View that
// shows it, what the terminal waits for. Each resize goes to a width not
// used before (nothing of it is cached), height 24 from 40.
//
//   - refs-3MB: a 3 MiB reply, which the host keeps as 64 KiB content
//     references once it ends and the chat adopts (chat/refturns.go); the
//     window follows its end.
//   - refs-3MB-top: the same, scrolled to the reply's first page (laid
//     out with glamour, not plain).
//   - inline-200KB: a 200 KiB reply, kept inline.
//
// The loads a resize starts (pages coming into the margin) run between
// iterations, outside the timer, as they do after the frame in the UI.
func BenchmarkResizeAfterReply(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
		top  bool
	}{
		{"refs-3MB", 3 << 20, false},
		{"refs-3MB-top", 3 << 20, true},
		{"inline-200KB", 200 << 10, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.StopTimer()
			r := openLiveChat(b)
			r.m = send(b, r.m, teaSize(120, 40))
			r.m = typeText(b, r.m, fmt.Sprintf("/demo stream %d 65536", c.size))
			r.m = send(b, r.m, keyPress("enter"))
			byRef := c.size > chat.RefAdoptBytes
			r.pump("the reply's start", func(m Model) bool { return m.chat.State.Current != nil })
			r.pump("the reply's end", func(m Model) bool {
				return m.chat.State.Current == nil && (!byRef || lastReplyByRef(m) && m.chat.Extras.Refs.Inflight == 0)
			})
			r.m = send(b, r.m, app.FrameMsg{})
			want := fmt.Sprintf("-- end of stream %d bytes --", c.size)
			if c.top {
				r.m.chat.Transcript.GotoTop()
				want = "# "
			}
			settle(b, r, want)
			var worst time.Duration
			for i := 0; i < b.N; i++ {
				w := 119 - i%60
				b.StartTimer()
				t0 := time.Now()
				nm, cmd := r.m.Update(teaSize(w, 24))
				r.m = nm.(Model)
				_ = r.m.View()
				d := time.Since(t0)
				b.StopTimer()
				worst = max(worst, d)
				r.m = runCmds(b, r.m, cmd, 0)
				settle(b, r, want)
				r.m = send(b, r.m, teaSize(120, 40))
				settle(b, r, want)
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "ms-max")
		})
	}
}

// settle runs frames until want is on screen and no content load is in
// flight (what a resize starts loads in the background).
func settle(b *testing.B, r *liveRig, want string) {
	b.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(viewText(r.m), want) || r.m.c.Channels.Loader.Inflight() != 0 {
		if time.Now().After(deadline) {
			b.Fatalf("%q never showed (%d loads in flight):\n%s", want, r.m.c.Channels.Loader.Inflight(), viewText(r.m))
		}
		r.m = send(b, r.m, app.FrameMsg{})
	}
}
