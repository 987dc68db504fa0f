package ahphost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// shiftClock is the real clock moved by a shift the test sets: time the
// host spends down, or a turn spends interrupted, without waiting for it.
type shiftClock struct {
	mu sync.Mutex
	by time.Duration
}

func (c *shiftClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.by)
}

func (c *shiftClock) shift(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.by += d
}

// startTurnAt dispatches chat/turnStarted stamped at.
func startTurnAt(w *wsClient, chat, turnID, text string, at time.Time, clientSeq uint64) {
	w.t.Helper()
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": clientSeq,
		"action": map[string]any{"type": "chat/turnStarted", "turnId": turnID, "startedAt": isoTime(at),
			"message": map[string]any{"text": text, "origin": map[string]any{"kind": "user"}}}})
}

// resumeTurn dispatches chat/turnResume.
func resumeTurn(w *wsClient, chat, turnID string, clientSeq uint64) {
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": clientSeq,
		"action": map[string]any{"type": "chat/turnResume", "turnId": turnID}})
}

// durationOf is the duration (ms) an action envelope reports.
func durationOf(t *testing.T, e envelope) int64 {
	t.Helper()
	var a struct {
		Duration *int64 `json:"duration"`
	}
	must(t, json.Unmarshal(e.Action, &a))
	if a.Duration == nil {
		t.Fatalf("%s reports no duration: %s", e.typ(), e.Action)
	}
	return *a.Duration
}

// lastDuration is the duration of the chat's last turn, read by a client.
func lastDuration(t *testing.T, w *wsClient, chat string) int64 {
	t.Helper()
	st, err := ahpwire.DecodeChatState(rawChat(t, w, chat))
	must(t, err)
	if len(st.Turns) == 0 || st.Turns[len(st.Turns)-1].Duration == nil {
		t.Fatalf("no finished turn with a duration: %+v", st.Turns)
	}
	return *st.Turns[len(st.Turns)-1].Duration
}

// TestResumedTurnDurationLeavesOutThePause: a turn that failed resumably,
// sat for an hour and was resumed reports the time it ran — before the
// error and after the resume — not the hour between.
func TestResumedTurnDurationLeavesOutThePause(t *testing.T) {
	clock := &shiftClock{}
	_, u := startHost(t, Options{NoToken: true, Pace: time.Millisecond, Now: clock.now})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/pause")
	rawChat(t, w, chat)
	startTurnAt(w, chat, "t1", "/demo error", clock.now(), 1)
	d1 := durationOf(t, w.actionOfType(chat, ahpwire.ActionChatError))
	clock.shift(time.Hour)
	resumeTurn(w, chat, "t1", 2)
	d2 := durationOf(t, w.actionOfType(chat, "chat/turnComplete"))
	if d2 < d1 || d2 > d1+time.Minute.Milliseconds() {
		t.Fatalf("the resumed turn reports %d ms; it ran %d ms before the pause and a moment after", d2, d1)
	}
	if got := lastDuration(t, w, chat); got != d2 {
		t.Fatalf("the chat's turn says %d ms, its turnComplete %d", got, d2)
	}
}

// TestDurableResumedTurnTimedAcrossRestarts: a reply interrupted by a
// host stop, resumed an hour later, interrupted again and resumed after
// another hour counts only the time it ran: its interrupted durations and
// its end (a client's cancel, which counts from startedAt across both
// pauses, is timed by the host) stay under a minute; the hours the host
// was down are left out. The second interruption is timed from the
// resume's moved start, kept in the chat's stored meta.
func TestDurableResumedTurnTimedAcrossRestarts(t *testing.T) {
	state := t.TempDir()
	clock := &shiftClock{}
	opts := Options{Pace: 10 * time.Millisecond, Now: clock.now}
	h1, u := startDurable(t, state, opts)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/clock")
	rawChat(t, w, chat)
	t0 := clock.now()
	startTurnAt(w, chat, "t1", "/demo slow 40", t0, 1)
	waitLine := func(h *Host, line string) {
		waitUntil(t, line, func() bool {
			h.mu.Lock()
			defer h.mu.Unlock()
			at := h.st.chats[chat].state.ActiveTurn
			return at != nil && strings.Contains(markdownOf(at.ResponseParts.Slice()), line)
		})
	}
	waitLine(h1, "line 3 of 40")
	w.close()
	must(t, h1.Close())

	clock.shift(time.Hour) // the host is down for an hour
	h2, u2 := startDurable(t, state, opts)
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	d1 := lastDuration(t, w2, chat)
	if d1 > time.Minute.Milliseconds() {
		t.Fatalf("the interrupted turn reports %d ms", d1)
	}
	resumeTurn(w2, chat, "t1", 1)
	waitLine(h2, "line 8 of 40")
	w2.close()
	must(t, h2.Close())

	// The file was last written an hour later by the host's clock than by
	// the machine's: move its time there, as a real hour down would.
	path := filepath.Join(state, durable.FileName)
	fi, err := os.Stat(path)
	must(t, err)
	must(t, os.Chtimes(path, fi.ModTime(), fi.ModTime().Add(time.Hour)))
	clock.shift(time.Hour)
	h3, u3 := startDurable(t, state, opts)
	w3 := dial(t, u3, nil)
	w3.initialize("c3", nil, nil)
	d2 := lastDuration(t, w3, chat)
	if d2 < d1 || d2 > time.Minute.Milliseconds() {
		t.Fatalf("interrupted again, the resumed turn reports %d ms (it had run %d ms before its resume)", d2, d1)
	}
	resumeTurn(w3, chat, "t1", 1)
	waitLine(h3, "line 12 of 40")
	w3.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 2, "action": map[string]any{
		"type": "chat/turnCancelled", "turnId": "t1", "duration": clock.now().Sub(t0).Milliseconds()}})
	d3 := durationOf(t, w3.actionOfType(chat, "chat/turnCancelled"))
	if d3 < d2 || d3 > time.Minute.Milliseconds() {
		t.Fatalf("the cancelled resumed turn reports %d ms (it had run %d ms before this resume)", d3, d2)
	}
	if got := lastDuration(t, w3, chat); got != d3 {
		t.Fatalf("the chat's turn says %d ms, its turnCancelled %d", got, d3)
	}
}
