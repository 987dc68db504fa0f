package ahphost

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestOfficialStyleClientReopensA40MBChat (issue 12): after two
// "/demo big 20000001" replies (~40 MB of chat), a client that does not
// segment and accepts 1 MiB messages reopens the chat over a real
// WebSocket: subscribe gives a window within 1 MiB, fetchTurns pages the
// older turns, and the finished big replies arrive as contentRef parts
// whose pages resourceRead serves, each answer within 1 MiB; put together
// they are byte for byte the replies.
func TestOfficialStyleClientReopensA40MBChat(t *testing.T) {
	const limit = 1 << 20
	size := 20000001
	if raceEnabled {
		size = 3000001 // still three times the limit per turn; -race is ~10× slower
	}
	cmd := "/demo big " + itoa(size)
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: limit})

	// The producer segments (the live 3 MiB deltas need it).
	p := dial(t, u, nil)
	p.reasm = newClientReasm(limit, 64<<20)
	p.initialize("writer", nil, map[string]any{"maxIncomingFrameBytes": limit, "maxIncomingMessageBytes": 64 << 20})
	chat := p.createSession("ahp-session:/big")
	p.call("subscribe", map[string]any{"channel": chat})
	for i, id := range []string{"t1", "t2"} {
		p.sendMessage(chat, id, cmd, uint64(i+1))
		p.action(chat+" end of turn", func(e envelope) bool {
			return e.Channel == chat && (e.typ() == ahpwire.ActionChatTurnComplete || e.typ() == "chat/error")
		})
		p.pending = nil
	}
	p.close()

	w := dial(t, u, nil) // no chunking capability: 1 MiB is the limit
	w.initialize("official", nil, nil)
	start := time.Now()
	var sub struct {
		Snapshot struct {
			State ahpwire.ChatState `json:"state"`
		} `json:"snapshot"`
		TurnsNextCursor string `json:"turnsNextCursor"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat, "view": map[string]any{"turns": 50}}), &sub))
	turns := sub.Snapshot.State.Turns
	for cursor := sub.TurnsNextCursor; cursor != ""; {
		w.call("fetchTurns", map[string]any{"channel": chat, "cursor": cursor})
		var a ahpwire.ChatTurnsLoaded
		must(t, json.Unmarshal(w.actionOfType(chat, "chat/turnsLoaded").Action, &a))
		turns = append(a.Turns, turns...)
		cursor = a.TurnsNextCursor
	}
	t.Logf("subscribe + fetchTurns: %v, largest frame %d bytes", time.Since(start), w.maxFrame)
	if len(turns) != 2 {
		t.Fatalf("reopened chat has %d turns, want 2", len(turns))
	}
	want := demo.BigReply(size)
	for _, tr := range turns {
		var b strings.Builder
		refs := 0
		for _, part := range tr.ResponseParts {
			switch part.Kind {
			case ahpwire.PartMarkdown:
				b.WriteString(part.Content)
			case ahpwire.PartContentRef:
				refs++
				var r ahpwire.ResourceReadResult
				must(t, json.Unmarshal(w.call("resourceRead", map[string]any{"channel": "ahp-root://", "uri": part.Ref.URI}), &r))
				if r.Encoding != ahpwire.EncodingUTF8 || part.Ref.SizeHint == nil || int64(len(r.Data)) != *part.Ref.SizeHint {
					t.Fatalf("resourceRead %s: encoding %q, %d bytes, hint %v", part.Ref.URI, r.Encoding, len(r.Data), part.Ref.SizeHint)
				}
				b.WriteString(r.Data)
			}
		}
		if refs == 0 {
			t.Fatalf("turn %s: the finished big reply was sent inline, not by reference", tr.ID)
		}
		if b.String() != want {
			t.Fatalf("turn %s: reassembled %d bytes, want the %d-byte reply", tr.ID, b.Len(), len(want))
		}
	}
	t.Logf("whole 40 MB chat incl. every resourceRead: %v", time.Since(start))
	if w.maxFrame > limit {
		t.Fatalf("a frame of %d bytes reached a client with a %d limit", w.maxFrame, limit)
	}
}

// TestDemoHistoryCreatesAPagedChat: "/demo history 300" creates a session
// whose chat has 300 finished turns; a subscribe with view.turns opens on
// the newest of them and turnsNextCursor leads to the rest.
func TestDemoHistoryCreatesAPagedChat(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	w.sendMessage(chat, "t1", "/demo history 300", 1)
	w.actionOfType(chat, ahpwire.ActionChatTurnComplete)
	var se struct {
		Snapshot struct {
			State struct {
				DefaultChat string `json:"defaultChat"`
			} `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": demo.HistorySession(300)}), &se))
	var sub struct {
		Snapshot struct {
			State ahpwire.ChatState `json:"state"`
		} `json:"snapshot"`
		TurnsNextCursor string `json:"turnsNextCursor"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": se.Snapshot.State.DefaultChat, "view": map[string]any{"turns": 40}}), &sub))
	if n := len(sub.Snapshot.State.Turns); n != 40 || sub.TurnsNextCursor == "" || sub.Snapshot.State.Turns[39].ID != "seed-299" {
		t.Fatalf("history chat window: %d turns, cursor %q", n, sub.TurnsNextCursor)
	}
}

// TestLargeToolOutputByReference: a finished tool call whose text output
// is above LargePartBytes is sent with resource blocks instead (one per
// page), which resourceRead serves; small outputs stay inline.
func TestLargeToolOutputByReference(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, LargePartBytes: 32 << 10, ResourcePageBytes: 8 << 10})
	big := strings.Repeat("a log line of the tool\n", 3000) // ~69 KB
	ok := true
	tc := ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "run", DisplayName: "Run",
		Success: &ok, Content: []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: "small"}, {Type: ahpwire.ContentText, Text: big}}}
	turn := ahpwire.Turn{ID: "t1", Message: ahpwire.ChatMessage{Text: "run it"}, State: ahpwire.TurnComplete,
		ResponseParts: []ahpwire.ResponsePart{{Kind: ahpwire.PartToolCall, ToolCall: &tc}}}
	chat, err := h.SeedSession("ahp-session:/tool", []ahpwire.Turn{turn})
	must(t, err)
	if len(tc.Content) != 2 || tc.Content[1].Text != big {
		t.Fatal("the caller's tool call was modified in place")
	}
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	st := chatWire(t, w, chat)
	// The snapshot leaves the turn out (its window starts after it); the
	// state itself still holds the text (it changes only through actions),
	// and fetchTurns serves the turn with the output by reference.
	if len(st.Turns) != 0 || st.TurnsNextCursor == "" {
		t.Fatalf("snapshot holds %d turns, cursor %q", len(st.Turns), st.TurnsNextCursor)
	}
	w.call("fetchTurns", map[string]any{"channel": chat, "cursor": st.TurnsNextCursor})
	var loaded ahpwire.ChatTurnsLoaded
	must(t, json.Unmarshal(w.actionOfType(chat, "chat/turnsLoaded").Action, &loaded))
	if len(loaded.Turns) != 1 {
		t.Fatalf("page has %d turns", len(loaded.Turns))
	}
	got := loaded.Turns[0].ResponseParts[0].ToolCall
	if got == nil || len(got.Content) < 3 || got.Content[0].Text != "small" {
		t.Fatalf("tool content %+v", got)
	}
	var b strings.Builder
	for _, c := range got.Content[1:] {
		if c.Type != ahpwire.ContentResource || c.URI == "" {
			t.Fatalf("block %+v is not a resource", c)
		}
		var r ahpwire.ResourceReadResult
		must(t, json.Unmarshal(w.call("resourceRead", map[string]any{"channel": "ahp-root://", "uri": c.URI}), &r))
		if r.ContentType != "text/plain" {
			t.Fatalf("content type %q", r.ContentType)
		}
		b.WriteString(r.Data)
	}
	if b.String() != big {
		t.Fatalf("pages give %d bytes, want %d", b.Len(), len(big))
	}
}

// Pages are at most the page size, cut on rune boundaries, give the text
// back when concatenated, and end after a blank line when the text has
// paragraphs (so each page holds whole markdown paragraphs).
func TestPagesCutAfterParagraphs(t *testing.T) {
	reply := demo.BigReply(1 << 20)
	ps := pages(reply, 64<<10)
	if strings.Join(ps, "") != reply {
		t.Fatal("pages do not give the text back")
	}
	for i, p := range ps {
		if len(p) > 64<<10 || !utf8.ValidString(p) {
			t.Fatalf("page %d: %d bytes, valid UTF-8 %v", i, len(p), utf8.ValidString(p))
		}
		if i < len(ps)-1 && !strings.HasSuffix(p, "\n\n") {
			t.Fatalf("page %d does not end after a blank line: %q", i, p[len(p)-20:])
		}
	}
	// Without blank lines: after a newline; without newlines: on a rune
	// boundary.
	lines := strings.Repeat("é line\n", 30000)
	for i, p := range pages(lines, 4096) {
		if len(p) > 4096 || !strings.HasSuffix(p, "\n") {
			t.Fatalf("lines page %d: %d bytes, ends %q", i, len(p), p[len(p)-3:])
		}
	}
	runes := strings.Repeat("é", 10000)
	ps = pages(runes, 4097)
	if strings.Join(ps, "") != runes {
		t.Fatal("rune pages do not give the text back")
	}
	for i, p := range ps {
		if len(p) > 4097 || !utf8.ValidString(p) {
			t.Fatalf("rune page %d: %d bytes, valid %v", i, len(p), utf8.ValidString(p))
		}
	}
}

// TestStoredTextLeavesReplayLog: once a finished reply's long text is
// stored by reference, the replay log drops the envelopes before the
// turn's end (its deltas): a reconnect from before the turn gets a
// snapshot holding the reply by reference, one from the last delta on
// still gets a replay (the turn's end).
func TestStoredTextLeavesReplayLog(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	start := h.ServerSeq()
	w.sendMessage(chat, "t1", "/demo big 300000", 1)
	end := w.action(chat+" end of turn", func(e envelope) bool {
		return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete
	})
	h.mu.Lock()
	bytes := h.st.ringBytes
	h.mu.Unlock()
	if bytes > 16<<10 {
		t.Fatalf("the replay log still holds %d bytes after the reply was stored", bytes)
	}
	w.close()
	for _, tc := range []struct {
		after uint64
		want  string
	}{{start, "snapshot"}, {end.ServerSeq - 1, "replay"}} {
		res := reconnectAs(t, u, "c1", chat, tc.after, tc.want)
		if snap := string(bytesOf(res.Snapshots)); tc.want == "snapshot" && (len(snap) > 64<<10 || !strings.Contains(snap, `"turnsNextCursor"`)) {
			t.Fatalf("the snapshot holds the reply (%d bytes) instead of leaving it to fetchTurns", len(snap))
		}
	}
}

// bytesOf joins raw JSON values.
func bytesOf(rs []json.RawMessage) []byte {
	var out []byte
	for _, r := range rs {
		out = append(out, r...)
	}
	return out
}

// TestReleaseMemoryAfterStoringALongText: Options.ReleaseMemory runs once
// a finished reply's long text is stored by reference, not after a short
// reply, and never twice at once.
func TestReleaseMemoryAfterStoringALongText(t *testing.T) {
	var runs, running, overlapped atomic.Int32
	release := func() {
		if running.Add(1) > 1 {
			overlapped.Store(1)
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		runs.Add(1)
	}
	_, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10,
		ReleaseMemory: release, ReleaseGap: 200 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	turnEnd := func(e envelope) bool { return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete }

	w.sendMessage(chat, "t1", "hello", 1)
	w.action(chat+" end of a short turn", turnEnd)
	// A release the short turn caused late would also make the count
	// below 2: no need to wait for one here.
	if n := runs.Load(); n != 0 {
		t.Fatalf("released memory %d times after a short reply", n)
	}

	w.sendMessage(chat, "t2", "/demo big 300000", 2)
	w.action(chat+" end of the long turn", turnEnd)
	deadline := time.Now().Add(5 * time.Second)
	for runs.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("released memory %d times after one long reply, want 1", n)
	}
	if overlapped.Load() != 0 {
		t.Fatal("two releases ran at once")
	}
}

// TestReleaseMemoryWaitsForQuiet: a release asked for while the host
// keeps sending actions waits until it has been quiet, not the gap alone.
func TestReleaseMemoryWaitsForQuiet(t *testing.T) {
	var mu sync.Mutex
	var started time.Time
	release := func() { mu.Lock(); started = time.Now(); mu.Unlock() }
	_, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10,
		ReleaseMemory: release, ReleaseGap: 2 * time.Second}) // quiet: 1 s
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	turnEnd := func(e envelope) bool { return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete }
	w.sendMessage(chat, "t0", "/demo big 200000", 1)
	w.action(chat+" end of the long turn", turnEnd) // the release is asked for
	var last time.Time
	for i, end := 1, time.Now().Add(2500*time.Millisecond); time.Now().Before(end); i++ { // turns back to back
		last = time.Now()
		w.sendMessage(chat, "t"+strconv.Itoa(i), "hello", uint64(i+1))
		w.action(chat+" end of a short turn", turnEnd)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		at := started
		mu.Unlock()
		if !at.IsZero() {
			if at.Before(last) {
				t.Fatalf("memory was released %v before the last turn, while the host was busy", last.Sub(at))
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("memory was not released once the host was quiet")
}

// TestReleaseMemoryPaced: long replies finishing while memory is being
// given back make one more release, a gap after the first ended, not one
// each.
func TestReleaseMemoryPaced(t *testing.T) {
	const gap = 300 * time.Millisecond
	var mu sync.Mutex
	var started, ended []time.Time
	hold := make(chan struct{})
	release := func() {
		mu.Lock()
		first := len(started) == 0
		started = append(started, time.Now())
		mu.Unlock()
		if first {
			<-hold
		}
		mu.Lock()
		ended = append(ended, time.Now())
		mu.Unlock()
	}
	runs := func() int { mu.Lock(); defer mu.Unlock(); return len(ended) }
	h, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10,
		ReleaseMemory: release, ReleaseGap: gap})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	turnEnd := func(e envelope) bool { return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete }
	w.sendMessage(chat, "t1", "/demo big 200000", 1)
	w.action(chat+" end of the first long turn", turnEnd)
	deadline := time.Now().Add(10 * time.Second)
	for !func() bool { mu.Lock(); defer mu.Unlock(); return len(started) == 1 }() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for i := 2; i <= 4; i++ { // they end while the first release runs
		w.sendMessage(chat, "t"+strconv.Itoa(i), "/demo big 200000", uint64(i))
		w.action(chat+" end of a long turn", turnEnd)
	}
	close(hold)
	for runs() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ended) != 2 {
		t.Fatalf("%d releases ended, want 2", len(ended))
	}
	if d := started[1].Sub(ended[0]); d < gap {
		t.Fatalf("the second release started %v after the first ended, inside the %v gap", d, gap)
	}
	h.mu.Lock()
	due := h.release.due
	h.mu.Unlock()
	if due {
		t.Fatal("a third release is due for the turns the second covered")
	}
}
