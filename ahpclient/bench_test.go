package ahpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
)

const benchChat = "ahp-chat:/bench"

// deltaFrame appends the `action` notification carrying chat/delta number
// seq (a typical ~80-character streaming delta).
func deltaFrame(dst []byte, seq int) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":"action","params":{"channel":"`+benchChat+`","serverSeq":`...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	dst = append(dst, `,"action":{"type":"chat/delta","turnId":"t1","partId":"p1","content":"Streaming markdown text for the benchmark, about eighty bytes long. `...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	return append(dst, `"}}}`...)
}

// benchServer streams n delta frames: to a raw client (?mode=raw) right
// after the WebSocket handshake, to an AHP client right after it subscribes
// to benchChat (initialize, subscribe, listSessions and ping are answered).
type benchServer struct {
	n   int
	srv *httptest.Server
}

func newBenchServer(b *testing.B, n int) *benchServer {
	s := &benchServer{n: n}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	b.Cleanup(func() { s.srv.CloseClientConnections(); s.srv.Close() })
	return s
}

func (s *benchServer) url(mode string) string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/?mode=" + mode
}

func (s *benchServer) stream(ctx context.Context, ws *websocket.Conn) {
	buf := make([]byte, 0, 256)
	for i := 1; i <= s.n; i++ {
		buf = deltaFrame(buf[:0], i)
		if ws.Write(ctx, websocket.MessageText, buf) != nil {
			return
		}
	}
}

func (s *benchServer) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	ctx := r.Context()
	if r.URL.Query().Get("mode") == "raw" {
		s.stream(ctx, ws)
		_, _, _ = ws.Read(ctx) // until the client closes
		return
	}
	done := make(chan struct{})
	defer func() { <-done }()
	started := false
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			if !started {
				close(done)
			}
			return
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil || !m.IsRequest() {
			continue
		}
		var resp *ahpwire.Message
		switch m.Method {
		case ahpwire.MethodInitialize:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.InitializeResult{ProtocolVersion: "1.0.0",
				Snapshots: []ahpwire.Snapshot{{Resource: ahpwire.RootURI, State: json.RawMessage(`{"agents":[]}`)}}})
		case ahpwire.MethodSubscribe:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.SubscribeResult{Snapshot: &ahpwire.Snapshot{Resource: benchChat,
				State: json.RawMessage(`{"resource":"` + benchChat + `","title":"b","status":1,"modifiedAt":"x","turns":[]}`)}})
		case ahpwire.MethodListSessions:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.ListSessionsResult{})
		default:
			resp, _ = ahpwire.NewResult(*m.ID, nil)
		}
		out, _ := json.Marshal(resp)
		if ws.Write(ctx, websocket.MessageText, out) != nil {
			return
		}
		if m.Method == ahpwire.MethodSubscribe && !started {
			started = true
			go func() { defer close(done); s.stream(ctx, ws) }()
		}
	}
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// BenchmarkDeltaEnvelopes measures, in one run, the raw WebSocket message
// rate (coder/websocket Reader into a reused buffer, no decoding) and the
// rate of chat/delta envelopes through the client (read, reassembly check,
// JSON-RPC and envelope decode, sequence tracking, ordered delivery via
// Next), both over loopback from the same server, and reports their ratio
// and the allocations per envelope. Run with a fixed count, e.g.
// -benchtime=200000x.
func BenchmarkDeltaEnvelopes(b *testing.B) {
	n := b.N
	s := newBenchServer(b, n)
	ctx := context.Background()

	// Raw WebSocket rate.
	ws, _, err := websocket.Dial(ctx, s.url("raw"), nil)
	if err != nil {
		b.Fatal(err)
	}
	ws.SetReadLimit(-1)
	var buf bytes.Buffer
	m0 := mallocs()
	t0 := time.Now()
	for i := 0; i < n; i++ {
		_, r, err := ws.Reader(ctx)
		if err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		if _, err := buf.ReadFrom(r); err != nil {
			b.Fatal(err)
		}
	}
	raw := time.Since(t0)
	rawAllocs := mallocs() - m0
	_ = ws.CloseNow()

	// Through the client.
	o := Options{URL: s.url("ahp"), StateDir: b.TempDir(), ClientID: "bench", PingInterval: time.Minute, PingTimeout: time.Minute}
	c, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	m1 := mallocs()
	t1 := time.Now()
	if _, err := c.Subscribe(ctx, benchChat, nil); err != nil {
		b.Fatal(err)
	}
	got := 0
	for got < n {
		ev, err := c.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if e, ok := ev.(EnvelopeEvent); ok {
			got++
			if e.Envelope.ServerSeq != uint64(got) {
				b.Fatalf("envelope %d has serverSeq %d", got, e.Envelope.ServerSeq)
			}
		}
	}
	through := time.Since(t1)
	clientAllocs := mallocs() - m1
	b.StopTimer()

	rawRate := float64(n) / raw.Seconds()
	rate := float64(n) / through.Seconds()
	b.ReportMetric(rawRate, "raw-msg/s")
	b.ReportMetric(rate, "env/s")
	b.ReportMetric(rate/rawRate, "ratio")
	b.ReportMetric(float64(clientAllocs)/float64(n), "allocs/env")
	b.ReportMetric(float64(rawAllocs)/float64(n), "raw-allocs/msg")
}
