package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
)

// markdownOf returns the concatenated markdown of turnID in chat.
func (a *appConsumer) markdownOf(chat, turnID string) string {
	var b strings.Builder
	a.withMirror(func(m *mirror) {
		cs := m.chats[chat]
		for _, tr := range cs.Turns {
			if tr.ID != turnID {
				continue
			}
			raw, _ := json.Marshal(tr.ResponseParts)
			var parts []struct {
				Kind    string `json:"kind"`
				Content string `json:"content"`
			}
			_ = json.Unmarshal(raw, &parts)
			for _, p := range parts {
				if p.Kind == "markdown" {
					b.WriteString(p.Content)
				}
			}
		}
	})
	return b.String()
}

func TestOversizedFrameFailsInFlightAndReconnects(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	// A watcher with default limits fills a chat with a 200 KiB reply.
	w, wa := startClient(t, testOptions(t, url))
	chat := openSession(t, w, wa, sessionURI(5))
	runTurn(t, w, wa, chat, "big", "/demo big 200k")

	o := testOptions(t, url)
	o.MaxFrameBytes = 64 << 10
	o.DisableChunking = true
	c, a := startClient(t, o)
	_, err := c.Subscribe(context.Background(), chat, nil) // the snapshot is > 64 KiB
	var te *TransportError
	var ft *FrameTooLargeError
	if !errors.As(err, &te) || !errors.As(err, &ft) || ft.Limit != 64<<10 {
		t.Fatalf("Subscribe = %v, want *TransportError caused by *FrameTooLargeError", err)
	}
	evs := a.waitFor("reconnected", 20*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	if countState(evs, Failed) != 0 {
		t.Fatalf("one oversized response must not fail the client: %s", describeTail(evs, 6))
	}
	if c.seq.subscribed(chat) {
		t.Fatal("the failed subscription was resumed")
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping after recovery: %v", err)
	}
}

func TestRepeatedOversizeStopsWithActionableError(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	o.MaxFrameBytes = 64 << 10
	o.DisableChunking = true
	c, a := startClient(t, o)
	chat := openSession(t, c, a, sessionURI(6))
	if _, err := c.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "big", Message: ahpwire.UserMessage("/demo big 200k")}); err != nil {
		t.Fatal(err)
	}
	evs := a.waitFor("failed", 20*time.Second, func(evs []Event) bool { return countState(evs, Failed) > 0 })
	st, _ := lastState(evs)
	var pe *PersistentOversizeError
	if st.Phase != Failed || !errors.As(st.Err, &pe) || !errors.Is(st.Err, ErrFrameTooLarge) {
		t.Fatalf("final state = %v, want Failed with *PersistentOversizeError", st)
	}
	if !strings.Contains(st.Err.Error(), "chunking") || !strings.Contains(st.Err.Error(), "stopped reconnecting") {
		t.Fatalf("error is not actionable: %q", st.Err)
	}
	n := countState(evs, Reconnecting)
	// Failed is final: the supervisor goroutine (the only one that
	// reconnects) has returned, so no attempt can follow; wait for that
	// instead of 300 ms.
	ended := make(chan struct{})
	go func() { c.wg.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the client still supervises its connection after Failed")
	}
	if m := countState(a.snapshot(), Reconnecting); m != n || n > 2 {
		t.Fatalf("reconnect loop: %d reconnect attempts, %d after the stop", n, m)
	}
	if err := c.Ping(context.Background()); !errors.Is(err, ErrNotConnected) || !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("Ping after Failed = %v", err)
	}
}

func TestBigReplyThroughRelayWithChunking(t *testing.T) {
	const size = 3 << 20
	_, url := startHost(t, ahphost.Options{NoToken: true, RelayFrameCap: 1000000, InlineStreams: true}) // one message above the cap
	o := testOptions(t, url)
	o.MaxFrameBytes = 900000
	o.PingTimeout, o.DialTimeout = 10*time.Second, 60*time.Second
	c, a := startClient(t, o)
	if st := c.State(); !st.HostChunking {
		t.Fatalf("host chunking not negotiated: %+v", st)
	}
	chat := openSession(t, c, a, sessionURI(7))
	runTurn(t, c, a, chat, "big", "/demo big 3m")
	md := a.markdownOf(chat, "big")
	if len(md) != size || !strings.HasSuffix(md, "-- end of 3145728 bytes --") || md != demo.BigReply(size) {
		t.Fatalf("reply is %d bytes (want %d), suffix %q", len(md), size, md[max(0, len(md)-30):])
	}
	if n := countState(a.snapshot(), Reconnecting); n != 0 {
		t.Fatalf("%d reconnects during a segmented transfer", n)
	}
	// Client → host: a 1.5 MB request is segmented below the relay cap.
	big := strings.Repeat("x", 1500000)
	meta := ahpwire.Meta{"blob": json.RawMessage(`"` + big + `"`)}
	if err := c.CreateSession(context.Background(), ahpwire.CreateSessionParams{Channel: sessionURI(8), Provider: "demo", Meta: meta}); err != nil {
		t.Fatalf("segmented createSession: %v", err)
	}
}

func TestBigReplyThroughRelayWithoutChunkingStops(t *testing.T) {
	// LargePartBytes -1: the host keeps the finished reply inline, so every
	// resume meets an oversized frame again (with references, a resume after
	// the turn ended gets a small snapshot and recovers).
	_, url := startHost(t, ahphost.Options{NoToken: true, RelayFrameCap: 1000000, LargePartBytes: -1})
	o := testOptions(t, url)
	o.DisableChunking = true
	// A host building a 3 MiB frame under -race on a loaded machine is slow;
	// keep the heartbeat and handshake from giving up first.
	o.PingTimeout, o.DialTimeout = 10*time.Second, 60*time.Second
	c, a := startClient(t, o)
	if c.cfg.chunking != nil {
		t.Fatal("chunking advertised")
	}
	chat := openSession(t, c, a, sessionURI(9))
	if _, err := c.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "big", Message: ahpwire.UserMessage("/demo big 3m")}); err != nil {
		t.Fatal(err)
	}
	evs := a.waitFor("failed", 60*time.Second, func(evs []Event) bool { return countState(evs, Failed) > 0 })
	st, _ := lastState(evs)
	var pe *PersistentOversizeError
	if !errors.As(st.Err, &pe) || !pe.Remote || pe.ClientChunking {
		t.Fatalf("final state = %v, want a persistent remote oversize without client chunking", st)
	}
	if !strings.Contains(st.Err.Error(), "enable it") {
		t.Fatalf("error does not say how to fix it: %q", st.Err)
	}
	// Locally, a request above the ceiling toward this host still works
	// because the host advertised chunking; the fail-closed request path is
	// covered by TestFailClosedRequestWithoutHostChunking.
}
