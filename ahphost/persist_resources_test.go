package ahphost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestDurableStoredPageNotHeld: the write-ahead rule holds what a client
// receives until the database has it, and no longer. While a commit is
// stalled, a page of an earlier reply (written by an earlier commit) is
// answered at once; a page of the reply streaming now is answered only
// after the commit that stores it.
func TestDurableStoredPageNotHeld(t *testing.T) {
	h, u := startDurable(t, t.TempDir(), Options{})
	db := h.st.persist.db
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/pages")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo stream 600k", 1)
	var page string
	for {
		e := w.action("turn t1", func(e envelope) bool { return e.Channel == chat })
		if e.typ() == "chat/turnComplete" {
			break
		}
		var a struct {
			Part struct {
				Kind string `json:"kind"`
				URI  string `json:"uri"`
			} `json:"part"`
		}
		if json.Unmarshal(e.Action, &a) == nil && a.Part.Kind == "contentRef" && page == "" {
			page = a.Part.URI
		}
	}
	if !strings.Contains(page, "/t1/") {
		t.Fatalf("no page of t1 streamed (first contentRef %q)", page)
	}

	// Stall the next commit, then start a second reply.
	entered, gate := make(chan struct{}, 1), make(chan struct{})
	stall := func() {
		select {
		case entered <- struct{}{}:
			<-gate
		default:
		}
	}
	hookCommit.Store(&stall)
	released := false
	release := func() {
		if !released {
			released = true
			hookCommit.Store(nil)
			close(gate)
		}
	}
	t.Cleanup(release)
	r := dial(t, u, nil) // a reader subscribed to nothing: nothing of t2 queued ahead of its answers
	r.initialize("reader", nil, nil)
	w.sendMessage(chat, "t2", "/demo stream 600k", 2)
	select {
	case <-entered:
	case <-time.After(testTimeout):
		t.Fatal("no commit started for t2")
	}
	next := strings.Replace(page, "/t1/", "/t2/", 1)
	deadline := time.Now().Add(testTimeout)
	for {
		h.mu.Lock()
		_, ok := h.st.ext.resources.get(next)
		h.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("t2's first page %s was never stored", next)
		}
		time.Sleep(time.Millisecond)
	}

	// t1's page: answered while the commit is stalled.
	old := r.request("resourceRead", map[string]any{"channel": "ahp-root://", "uri": page})
	if m := r.response(old); m.Error != nil || len(m.Result) < 60<<10 {
		t.Fatalf("t1's page: error %v, %d bytes", m.Error, len(m.Result))
	}
	h.mu.Lock()
	asked := h.st.seq
	h.mu.Unlock()
	if db.Seq() >= asked {
		t.Fatalf("the database holds serverSeq %d of %d: the commit was not stalled", db.Seq(), asked)
	}

	// t2's page: held until a commit covers what the host had when asked.
	id := r.request("resourceRead", map[string]any{"channel": "ahp-root://", "uri": next})
	release()
	m := r.response(id)
	if got := db.Seq(); got < asked {
		t.Fatalf("t2's page was answered with the database at serverSeq %d, before %d", got, asked)
	}
	if m.Error != nil || len(m.Result) < 60<<10 {
		t.Fatalf("t2's page: error %v, %d bytes", m.Error, len(m.Result))
	}
}
