package ahphost

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/segment"
)

const kib = 1 << 10

// segFrame builds one ahp/messageSegment frame from raw params JSON.
func segFrame(params string) string {
	return `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":` + params + `}`
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// chunkingClient dials and initializes with chunking at frameLimit.
func chunkingClient(t *testing.T, u, id string, frameLimit int64) *wsClient {
	t.Helper()
	w := dial(t, u, nil)
	w.reasm = segment.NewReassembler(segment.Limits{MaxFrameBytes: frameLimit, MaxMessageBytes: 64 << 20}, nil)
	w.initialize(id, nil, map[string]any{"maxIncomingFrameBytes": frameLimit, "maxIncomingMessageBytes": 64 << 20})
	return w
}

// sendSegmented splits msg to limit-sized frames and sends them.
func (w *wsClient) sendSegmented(msg []byte, limit int64) int {
	w.t.Helper()
	frames, err := segment.NewSplitter(nil).Split(msg, &segment.ChunkingCapability{
		MaxIncomingFrameBytes: limit, MaxIncomingMessageBytes: 32 << 20,
	}, 0)
	if err != nil {
		w.t.Fatalf("split: %v", err)
	}
	for _, f := range frames {
		if int64(len(f)) > limit {
			w.t.Fatalf("client frame of %d bytes exceeds %d", len(f), limit)
		}
		w.sendRaw(string(f))
	}
	return len(frames)
}

func TestSegmentingBothDirections(t *testing.T) {
	const limit = 64 * kib
	// Inline streams: the big reply must travel as one message above the limit.
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: limit, InlineStreams: true})
	w := chunkingClient(t, u, "c1", limit)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)

	// Client → host: a 200 KB prompt must be segmented to reach the host.
	prompt := "/demo big 3m\n" + strings.Repeat("context line for a long pasted prompt\n", 5400)
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "dispatchAction", "params": map[string]any{
		"channel": chat, "clientSeq": 1, "action": map[string]any{"type": "chat/turnStarted", "turnId": "t1",
			"startedAt": "2026-11-22T00:00:00.000Z", "message": map[string]any{"text": prompt, "origin": map[string]any{"kind": "user"}}},
	}})
	must(t, err)
	if n := w.sendSegmented(b, limit); n < 3 {
		t.Fatalf("prompt went in %d frames", n)
	}
	echo := w.actionOfType(chat, "chat/turnStarted")
	var ts struct {
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
	}
	must(t, json.Unmarshal(echo.Action, &ts))
	if ts.Message.Text != prompt {
		t.Fatalf("echoed prompt differs (%d vs %d bytes)", len(ts.Message.Text), len(prompt))
	}
	// Host → client: the 3 MiB reply arrives in frames ≤ 64 KiB.
	var md strings.Builder
	for {
		e := w.action("big reply", func(e envelope) bool { return e.Channel == chat })
		var a struct {
			Content string `json:"content"`
			Part    struct {
				Kind    string `json:"kind"`
				Content string `json:"content"`
			} `json:"part"`
		}
		must(t, json.Unmarshal(e.Action, &a))
		switch {
		case e.typ() == "chat/delta":
			md.WriteString(a.Content)
		case e.typ() == "chat/responsePart" && a.Part.Kind == "markdown":
			md.WriteString(a.Part.Content)
		}
		if e.typ() == "chat/turnComplete" {
			break
		}
	}
	if md.Len() != 3<<20 || !strings.HasSuffix(md.String(), "\n-- end of 3145728 bytes --") {
		t.Fatalf("reply of %d bytes ending %q", md.Len(), md.String()[max(0, md.Len()-40):])
	}
	if w.maxFrame > limit {
		t.Fatalf("host sent a frame of %d bytes, limit %d", w.maxFrame, limit)
	}
	if w.frames < 50 {
		t.Fatalf("only %d frames for a 3 MiB reply", w.frames)
	}
}

func TestSmallMessagesInterleaveWithSegments(t *testing.T) {
	const limit = 16 * kib
	h, u := startHost(t, Options{NoToken: true})
	w := chunkingClient(t, u, "c1", limit)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	h.SetFrameDelay(2 * time.Millisecond)
	w.sendMessage(chat, "t1", "/demo big 1m", 1)
	// Wait until a segmented group is in flight, then ping.
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	for w.reasm.Pending() == 0 {
		_, data, err := w.c.Read(ctx)
		must(t, err)
		msg, err := w.reasm.Feed(data)
		must(t, err)
		if msg != nil {
			w.pending = append(w.pending, msg)
		}
	}
	id := w.request("ping", map[string]any{"channel": "ahp-root://"})
	for {
		_, data, err := w.c.Read(ctx)
		must(t, err)
		msg, err := w.reasm.Feed(data)
		must(t, err)
		if msg == nil {
			continue
		}
		m := decodeWire(t, msg)
		if m.ID != nil && *m.ID == id {
			if w.reasm.Pending() == 0 {
				t.Fatal("ping answered only after the big message completed")
			}
			break
		}
		if m.Method == "action" && strings.Contains(string(m.Params), `"chat/turnComplete"`) {
			t.Fatal("turn completed before the ping was answered")
		}
	}
	h.SetFrameDelay(0)
}

// TestSegmentViolationsClose4400 covers every row of the RFC's validation
// table except "decoded segment exceeds maxIncomingFrameBytes", which a
// frame within the read limit cannot reach (base64 only shrinks when
// decoded); frames above the limit close with 1009 instead (see
// TestOversizeFrameClosesOnlyThatConnection).
func TestSegmentViolationsClose4400(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib, MaxMessageBytes: 100 * kib})
	long := strings.Repeat("g", 129)
	chunk := b64(strings.Repeat("x", 40*kib))
	tests := []struct {
		name   string
		frames []string
	}{
		{"missing groupId", []string{segFrame(`{"index":0,"total":1,"data":""}`)}},
		{"empty groupId", []string{segFrame(`{"groupId":"","index":0,"total":1,"data":""}`)}},
		{"groupId over 128 bytes", []string{segFrame(`{"groupId":"` + long + `","index":0,"total":2,"data":""}`)}},
		{"negative index", []string{segFrame(`{"groupId":"g","index":-1,"total":2,"data":""}`)}},
		{"fractional index", []string{segFrame(`{"groupId":"g","index":0.5,"total":2,"data":""}`)}},
		{"index not below total", []string{segFrame(`{"groupId":"g","index":2,"total":2,"data":""}`)}},
		{"new group not at 0", []string{segFrame(`{"groupId":"g","index":1,"total":3,"data":""}`)}},
		{"index skipped", []string{segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`), segFrame(`{"groupId":"g","index":2,"total":3,"data":""}`)}},
		{"index repeated", []string{segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`), segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`)}},
		{"total zero", []string{segFrame(`{"groupId":"g","index":0,"total":0,"data":""}`)}},
		{"total 2^16", []string{segFrame(`{"groupId":"g","index":0,"total":65536,"data":""}`)}},
		{"total changes", []string{segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`), segFrame(`{"groupId":"g","index":1,"total":4,"data":""}`)}},
		{"data missing", []string{segFrame(`{"groupId":"g","index":0,"total":2}`)}},
		{"data not base64", []string{segFrame(`{"groupId":"g","index":0,"total":2,"data":"%%%"}`)}},
		{"data not a string", []string{segFrame(`{"groupId":"g","index":0,"total":2,"data":42}`)}},
		{"group over maxIncomingMessageBytes", []string{
			segFrame(`{"groupId":"g","index":0,"total":3,"data":"` + chunk + `"}`),
			segFrame(`{"groupId":"g","index":1,"total":3,"data":"` + chunk + `"}`),
			segFrame(`{"groupId":"g","index":2,"total":3,"data":"` + chunk + `"}`),
		}},
		{"too many groups", func() []string {
			var f []string
			for i := range 9 {
				f = append(f, segFrame(fmt.Sprintf(`{"groupId":"g%d","index":0,"total":2,"data":""}`, i)))
			}
			return f
		}()},
		{"reassembled not UTF-8", []string{segFrame(`{"groupId":"g","index":0,"total":1,"data":"` + base64.StdEncoding.EncodeToString([]byte{0xff, 0xfe}) + `"}`)}},
		{"reassembled not JSON", []string{segFrame(`{"groupId":"g","index":0,"total":1,"data":"` + b64("not json") + `"}`)}},
		{"reassembled not JSON-RPC", []string{segFrame(`{"groupId":"g","index":0,"total":1,"data":"` + b64(`{"hello":1}`) + `"}`)}},
		{"nested segment", []string{segFrame(`{"groupId":"g","index":0,"total":1,"data":"` + b64(segFrame(`{"groupId":"h","index":0,"total":1,"data":""}`)) + `"}`)}},
		{"duplicate groupId in flight", []string{segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`), segFrame(`{"groupId":"g","index":0,"total":3,"data":""}`)}},
	}
	bystander := dial(t, u, nil)
	bystander.initialize("by", nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := dial(t, u, nil)
			w.initialize("c-"+tc.name, nil, nil)
			for _, f := range tc.frames {
				_ = w.c.Write(w.ctx, websocket.MessageText, []byte(f))
			}
			st := w.closed()
			if st != segment.CloseCode {
				t.Fatalf("close status %d, want 4400", st)
			}
			bystander.call("ping", map[string]any{"channel": "ahp-root://"})
		})
	}
}

func TestOversizeFrameClosesOnlyThatConnection(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	other := dial(t, u, nil)
	other.initialize("other", nil, nil)
	w := dial(t, u, nil)
	w.initialize("big", nil, nil)
	frame := `{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":"ahp-root://","clientSeq":1,"pad":"` +
		strings.Repeat("x", 17<<20) + `"}}`
	_ = w.c.Write(w.ctx, websocket.MessageText, []byte(frame))
	if st := w.closed(); st != websocket.StatusMessageTooBig {
		t.Fatalf("close status %d, want 1009", st)
	}
	other.call("ping", map[string]any{"channel": "ahp-root://"})
	fresh := dial(t, u, nil)
	fresh.initialize("fresh", nil, nil)
}

func TestTooLargeTowardNonChunkingClient(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib})
	seeded, err := h.SeedSession("ahp-session:/seeded", SyntheticTurns(40, 4*kib))
	must(t, err)
	w := dial(t, u, nil)
	w.initialize("plain", nil, nil)
	// A chat larger than one frame arrives as a window of its newest turns
	// (issue 12), never as a frame above the limit.
	var sub struct {
		TurnsNextCursor string `json:"turnsNextCursor"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": seeded}), &sub))
	if sub.TurnsNextCursor == "" || w.maxFrame > 64*kib {
		t.Fatalf("byte window: cursor %q, largest frame %d", sub.TurnsNextCursor, w.maxFrame)
	}
	// A state no window can shrink: -32050 with {size, limit}.
	drafted, err := h.SeedSession("ahp-session:/drafted", nil)
	must(t, err)
	bigDraft(t, h, drafted)
	code, m := w.callErr("subscribe", map[string]any{"channel": drafted})
	if code != -32050 {
		t.Fatalf("code %d, want -32050", code)
	}
	var data struct {
		Size  int64 `json:"size"`
		Limit int64 `json:"limit"`
	}
	must(t, json.Unmarshal(m.Error.Data, &data))
	if data.Limit <= 0 || data.Limit > 64*kib || data.Size <= data.Limit {
		t.Fatalf("data %+v", data)
	}
	// A windowed subscribe fits.
	if st := readChat(t, w, seeded, 2); len(st.Turns) != 2 || st.TurnsNextCursor == "" {
		t.Fatalf("windowed snapshot: %d turns, cursor %q", len(st.Turns), st.TurnsNextCursor)
	}
	// Notifications: the oversized delta is dropped, the turn still ends.
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.sendMessage(chat, "t1", "/demo big 200k", 1)
	w.actionOfType(chat, "chat/turnComplete")
	for _, e := range w.seen {
		if e.typ() == "chat/delta" && len(e.Action) > 64*kib {
			t.Fatalf("oversized delta delivered")
		}
	}
	if w.maxFrame > 64*kib {
		t.Fatalf("frame of %d bytes sent to a non-chunking client", w.maxFrame)
	}
}

func TestCapabilitiesReplacedOnReconnect(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib})
	seeded, err := h.SeedSession("ahp-session:/seeded", SyntheticTurns(40, 4*kib))
	must(t, err)
	w := chunkingClient(t, u, "c1", 64*kib)
	readChat(t, w, seeded, 0) // segmented: fine
	w.close()
	// Reconnect advertising smaller frames: segments follow the new limit.
	w2 := dial(t, u, nil)
	w2.reasm = segment.NewReassembler(segment.Limits{MaxFrameBytes: 8 * kib, MaxMessageBytes: 64 << 20}, nil)
	w2.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": 0,
		"subscriptions": []string{}, "capabilities": map[string]any{"chunking": map[string]any{
			"maxIncomingFrameBytes": 8 * kib, "maxIncomingMessageBytes": 64 << 20}}})
	readChat(t, w2, seeded, 0)
	if w2.maxFrame > 8*kib || w2.frames < 20 {
		t.Fatalf("max frame %d over %d frames", w2.maxFrame, w2.frames)
	}
	w2.close()
	// Reconnect with an empty capabilities block: no chunking any more.
	w3 := dial(t, u, nil)
	w3.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": 0,
		"subscriptions": []string{}, "capabilities": map[string]any{}})
	var sub struct {
		TurnsNextCursor string `json:"turnsNextCursor"`
	}
	must(t, json.Unmarshal(w3.call("subscribe", map[string]any{"channel": seeded}), &sub))
	if sub.TurnsNextCursor == "" || w3.maxFrame > 64*kib {
		t.Fatalf("after dropping chunking: cursor %q, largest frame %d (want one-frame window)", sub.TurnsNextCursor, w3.maxFrame)
	}
}

func TestRelayFrameCap(t *testing.T) {
	const relayCap = 100 * kib
	_, u := startHost(t, Options{NoToken: true, RelayFrameCap: relayCap})
	// A client that chunks below the cap gets a 1 MiB reply fine, and its own
	// segmented 300 KB prompt passes.
	ok := chunkingClient(t, u, "ok", 90000)
	chat := ok.createSession("ahp-session:/ok")
	readChat(t, ok, chat, 0)
	prompt := "/demo big 1m\n" + strings.Repeat("y", 300*kib)
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "dispatchAction", "params": map[string]any{
		"channel": chat, "clientSeq": 1, "action": map[string]any{"type": "chat/turnStarted", "turnId": "t1",
			"startedAt": "2026-11-22T00:00:00.000Z", "message": map[string]any{"text": prompt, "origin": map[string]any{"kind": "user"}}},
	}})
	must(t, err)
	ok.sendSegmented(b, relayCap)
	ok.actionOfType(chat, "chat/turnComplete")
	if ok.maxFrame > 90000 {
		t.Fatalf("frame of %d bytes", ok.maxFrame)
	}
	// A client that advertises frames above the cap is cut off like a relay would.
	bad := chunkingClient(t, u, "bad", 1<<20)
	chat2 := bad.createSession("ahp-session:/bad")
	readChat(t, bad, chat2, 0)
	bad.sendMessage(chat2, "t-bad", "/demo big 1m", 1) // turn ids are unique across chats
	if st := bad.closed(); st != websocket.StatusMessageTooBig {
		t.Fatalf("outgoing over cap: close %d, want 1009", st)
	}
	// An unsegmented incoming frame above the cap closes too.
	in := dial(t, u, nil)
	in.initialize("in", nil, nil)
	_ = in.c.Write(in.ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"x","params":{"p":"`+strings.Repeat("z", relayCap)+`"}}`))
	if st := in.closed(); st != websocket.StatusMessageTooBig {
		t.Fatalf("incoming over cap: close %d, want 1009", st)
	}
	ok.call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestDroppedMidSegmentsReleasesGroupID checks a connection that ends
// between the segments of a message releases the message's group id (the
// splitter keeps ids in flight until Done; a leak per dropped link).
func TestDroppedMidSegmentsReleasesGroupID(t *testing.T) {
	const limit = 64 * kib
	h, u := startHost(t, Options{NoToken: true, MaxFrameBytes: limit, LargePartBytes: -1})
	chat, err := h.SeedSession("ahp-session:/big", SyntheticTurns(4, 256*kib))
	must(t, err)
	// The snapshot is segmented: a whole read takes many frames.
	whole := chunkingClient(t, u, "whole", limit)
	before := whole.frames
	whole.call("subscribe", map[string]any{"channel": chat})
	if n := whole.frames - before; n < 8 {
		t.Fatalf("snapshot came in %d frames; want a segmented one", n)
	}
	w := chunkingClient(t, u, "c1", limit)
	h.DropAfterFrames(3)
	w.request("subscribe", map[string]any{"channel": chat})
	if _, err := w.readMsg(testTimeout); err == nil {
		t.Fatal("connection still open after the dropped frame budget")
	}
	deadline := time.Now().Add(testTimeout)
	for h.splitter.InFlight() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d group ids still in flight after the connection ended", h.splitter.InFlight())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
