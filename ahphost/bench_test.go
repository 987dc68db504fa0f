package ahphost

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// floodAgent emits n small chat/delta actions per turn as fast as the host
// takes them, starting a new markdown part every partEvery deltas (0 = one
// part for the whole turn).
type floodAgent struct{ n, partEvery int }

func (floodAgent) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "flood"}}
}

func (f *floodAgent) Run(ctx context.Context, t Turn) error {
	part := ""
	for i := 0; i < f.n; i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if part == "" || (f.partEvery > 0 && i%f.partEvery == 0) {
			part = fmt.Sprintf("m%d", i)
			t.Emit(&ahpwire.ChatResponsePart{TurnID: t.TurnID, Part: ahpwire.MarkdownPart(part, "")})
		}
		t.Emit(&ahpwire.ChatDelta{TurnID: t.TurnID, PartID: part, Content: "token "})
	}
	t.Emit(&ahpwire.ChatTurnComplete{TurnID: t.TurnID, Duration: ahpwire.Ptr(int64(1))})
	return nil
}

// deltasPerTurn is the size of one benchmark turn.
const deltasPerTurn = 1000

// BenchmarkHostThroughput measures how many action envelopes per second the
// host delivers from one agent to 1 and 10 subscribers over loopback
// WebSockets. One op is one turn of 1000 chat/delta envelopes in 10
// markdown parts (plus 10 responsePart, the echo and turnComplete); an op
// ends when every subscriber has read the turn's chat/turnComplete.
func BenchmarkHostThroughput(b *testing.B) {
	for _, subs := range []int{1, 10} {
		b.Run(fmt.Sprintf("subscribers=%d", subs), func(b *testing.B) {
			benchFlood(b, subs, 100, deltasPerTurn)
		})
	}
}

// BenchmarkHostOnePart is the same with all 1000 deltas in one markdown
// part (the chat reducer appends each delta to the part's shared
// append-only text buffer, so the cost per envelope does not grow with the
// part's length).
func BenchmarkHostOnePart(b *testing.B) {
	benchFlood(b, 1, 0, deltasPerTurn)
}

// longPartDeltas is the turn size of BenchmarkHostLongPart.
const longPartDeltas = 10_000

// BenchmarkHostLongPart streams 10,000 deltas (60 kB) into one markdown
// part per turn: the case where a reducer that copies the part's text on
// every delta costs O(n²) bytes per turn.
func BenchmarkHostLongPart(b *testing.B) {
	benchFlood(b, 1, 0, longPartDeltas)
}

// benchFlood runs b.N turns of `deltas` chat/delta envelopes each.
func benchFlood(b *testing.B, subs, partEvery, deltas int) {
	agent := &floodAgent{n: deltas, partEvery: partEvery}
	h, err := New(Options{NoToken: true, Dir: b.TempDir(), Agent: agent})
	if err != nil {
		b.Fatal(err)
	}
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	owner := dial(b, u, nil)
	owner.initialize("owner", nil, nil)
	chat := owner.createSession("ahp-session:/bench")
	clients := make([]*wsClient, subs)
	for i := range clients {
		clients[i] = dial(b, u, nil)
		clients[i].initialize(fmt.Sprintf("sub%d", i), []string{chat}, nil)
	}
	// done[i] receives one value per turn the subscriber finished reading.
	done := make([]chan struct{}, subs)
	errs := make(chan error, subs)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, c := range clients {
		done[i] = make(chan struct{}, 1)
		wg.Add(1)
		go func(c *wsClient, done chan<- struct{}) {
			defer wg.Done()
			for {
				_, data, err := c.c.Read(ctx)
				if err != nil {
					if ctx.Err() == nil {
						errs <- err
					}
					return
				}
				if bytes.Contains(data, []byte(`"chat/turnComplete"`)) {
					done <- struct{}{}
				}
			}
		}(c, done[i])
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		owner.sendMessage(chat, fmt.Sprintf("t%d", i), "go", uint64(i+1))
		for _, d := range done {
			select {
			case <-d:
			case err := <-errs:
				b.Fatal(err)
			case <-time.After(time.Minute):
				b.Fatal("turn did not complete")
			}
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	n := float64(b.N * deltas)
	b.ReportMetric(n/elapsed.Seconds(), "envelopes/s")
	b.ReportMetric(n*float64(subs)/elapsed.Seconds(), "deliveries/s")
	cancel()
	for _, c := range clients {
		c.close()
	}
	wg.Wait()
}

// BenchmarkSeedLargeTurns seeds a chat of 2,000 finished turns whose
// answers are all above LargePartBytes, so refLargeParts stores a part in
// every turn of one call: copying the turns once per stored turn instead
// of once per call costs O(turns²).
func BenchmarkSeedLargeTurns(b *testing.B) {
	turns := SyntheticTurns(2000, 2048)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h, err := New(Options{NoToken: true, Dir: b.TempDir(), LargePartBytes: 512, ResourcePageBytes: 4096})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := h.SeedSession("ahp-session:/seeded", turns); err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}
