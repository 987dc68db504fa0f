package ahphost

import (
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

func TestNoGoroutineLeakAfterClose(t *testing.T) {
	before := testkit.Goroutines()
	func() {
		h, err := New(Options{NoToken: true, Dir: t.TempDir(), Pace: time.Millisecond})
		must(t, err)
		u, err := h.Listen("127.0.0.1:0")
		must(t, err)
		w := dial(t, u, nil)
		w.initialize("c1", []string{"ahp-root://"}, map[string]any{"maxIncomingFrameBytes": 4096, "maxIncomingMessageBytes": 1 << 25})
		w.reasm = nil
		chat := w.createSession("ahp-session:/s1")
		w.call("subscribe", map[string]any{"channel": chat})
		// Leave a slow turn running and a half-sent segment group behind.
		w.sendMessage(chat, "t1", "/demo slow", 1)
		w.sendRaw(segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`))
		w2 := dial(t, u, nil)
		w2.initialize("c2", nil, nil)
		must(t, h.Close())
		must(t, h.Close()) // idempotent
		w.close()
		w2.close()
		if _, err := h.Listen("127.0.0.1:0"); err == nil {
			t.Fatal("Listen after Close succeeded")
		}
	}()
	testkit.CheckNoLeak(t, before)
}
