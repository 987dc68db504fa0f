package ahpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

const (
	benchChat   = "ahp-chat:/bench"
	benchMethod = "x-bench/stream" // asks the bench server for {count} envelopes
	benchRounds = 10               // raw and client phases alternate this often
)

// deltaFrame appends the `action` notification carrying chat/delta number
// seq (a typical ~80-character streaming delta).
func deltaFrame(dst []byte, seq int) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":"action","params":{"channel":"`+benchChat+`","serverSeq":`...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	dst = append(dst, `,"action":{"type":"chat/delta","turnId":"t1","partId":"p1","content":"Streaming markdown text for the benchmark, about eighty bytes long. `...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	return append(dst, `"}}}`...)
}

// benchServer streams delta frames on request over loopback: to a raw
// WebSocket client when it sends a text message with a count (?mode=raw),
// to an AHP client when it calls x-bench/stream {count} (initialize,
// subscribe, listSessions and ping are answered as a host would).
type benchServer struct {
	srv *httptest.Server
	// bigBytes > 0 makes every envelope a chat/delta of that many bytes,
	// sent as ahp/messageSegment frames of at most segFrame bytes.
	bigBytes, segFrame int
}

func newBenchServer(b *testing.B) *benchServer { return newBigBenchServer(b, 0, 0) }

func newBigBenchServer(b *testing.B, bigBytes, segFrame int) *benchServer {
	s := &benchServer{bigBytes: bigBytes, segFrame: segFrame}
	s.srv = serveWS(b, s.serve)
	return s
}

func (s *benchServer) url(mode string) string {
	return wsURL(s.srv) + "/?mode=" + mode
}

// stream writes count envelopes starting after *seq.
func (s *benchServer) stream(ctx context.Context, ws *websocket.Conn, seq *int, count int) {
	buf := make([]byte, 0, 256)
	var sp *segment.Splitter
	var recv *segment.ChunkingCapability
	if s.bigBytes > 0 {
		sp = segment.NewSplitter(nil)
		cc := segment.DefaultCapability()
		cc.MaxIncomingFrameBytes = int64(s.segFrame)
		recv = &cc
	}
	for i := 0; i < count; i++ {
		*seq++
		if sp == nil {
			buf = deltaFrame(buf[:0], *seq)
			if ws.Write(ctx, websocket.MessageText, buf) != nil {
				return
			}
			continue
		}
		buf = bigDeltaFrame(buf[:0], *seq, s.bigBytes)
		g, err := sp.SplitGroup(buf, recv, 0)
		if err != nil {
			return
		}
		for _, f := range g.Frames {
			if ws.Write(ctx, websocket.MessageText, f) != nil {
				return
			}
		}
		sp.Done(g.ID)
	}
}

// bigDeltaFrame appends an `action` notification with a chat/delta of
// about size bytes of text.
func bigDeltaFrame(dst []byte, seq, size int) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":"action","params":{"channel":"`+benchChat+`","serverSeq":`...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	dst = append(dst, `,"action":{"type":"chat/delta","turnId":"t1","partId":"p1","content":"`...)
	for i := 0; i < size; i++ {
		dst = append(dst, 'a'+byte(i%26))
	}
	return append(dst, `"}}}`...)
}

// framesPer is how many frames one envelope takes on the wire.
func (s *benchServer) framesPer() int {
	if s.bigBytes == 0 {
		return 1
	}
	var seq int
	g, err := segment.NewSplitter(nil).SplitGroup(bigDeltaFrame(nil, seq, s.bigBytes), &segment.ChunkingCapability{
		MaxIncomingFrameBytes: int64(s.segFrame), MaxIncomingMessageBytes: segment.DefaultMaxMessageBytes}, 0)
	if err != nil {
		panic(err)
	}
	return len(g.Frames)
}

func (s *benchServer) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	ctx := r.Context()
	seq := 0
	raw := r.URL.Query().Get("mode") == "raw"
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if raw {
			n, _ := strconv.Atoi(string(b))
			s.stream(ctx, ws, &seq, n)
			continue
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil || !m.IsRequest() {
			continue
		}
		var resp *ahpwire.Message
		count := 0
		switch m.Method {
		case ahpwire.MethodInitialize:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.InitializeResult{ProtocolVersion: "1.0.0",
				Snapshots: []ahpwire.Snapshot{{Resource: ahpwire.RootURI, State: json.RawMessage(`{"agents":[]}`)}}})
		case ahpwire.MethodSubscribe:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.SubscribeResult{Snapshot: &ahpwire.Snapshot{Resource: benchChat,
				State: json.RawMessage(`{"resource":"` + benchChat + `","title":"b","status":1,"modifiedAt":"x","turns":[]}`)}})
		case ahpwire.MethodListSessions:
			resp, _ = ahpwire.NewResult(*m.ID, ahpwire.ListSessionsResult{})
		case benchMethod:
			var p struct {
				Count int `json:"count"`
			}
			_ = json.Unmarshal(m.Params, &p)
			count = p.Count
			resp, _ = ahpwire.NewResult(*m.ID, nil)
		default:
			resp, _ = ahpwire.NewResult(*m.ID, nil)
		}
		out, _ := json.Marshal(resp)
		if ws.Write(ctx, websocket.MessageText, out) != nil {
			return
		}
		s.stream(ctx, ws, &seq, count)
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
// Next), both over loopback from the same server process. The two phases
// alternate in benchRounds rounds so machine load affects both alike. It
// reports both rates, their ratio over the whole run, the median of the
// per-round ratios (robust against load spikes from other processes) and
// the allocations per envelope (whole process during the client phase:
// raw-allocs/msg is the same server's share plus the raw reader's). Run
// with a fixed count, e.g. -benchtime=200000x.
func BenchmarkDeltaEnvelopes(b *testing.B) { benchEnvelopes(b, newBenchServer(b), 0) }

// BenchmarkSegmentedEnvelopes is BenchmarkDeltaEnvelopes with 1 MiB
// chat/delta envelopes that the server segments into ahp/messageSegment
// frames of at most 64 KiB (the client advertises that frame limit), so the
// client phase includes base64 decoding and reassembly. The raw phase reads
// the same segment frames without reassembling. Rates are envelopes/s
// (one envelope = framesPer raw frames). Run with e.g. -benchtime=200x.
func BenchmarkSegmentedEnvelopes(b *testing.B) {
	benchEnvelopes(b, newBigBenchServer(b, 1<<20, 64<<10), 64<<10)
}

// benchEnvelopes runs the alternating raw/client measurement; frameLimit >
// 0 is the client's advertised maxIncomingFrameBytes.
func benchEnvelopes(b *testing.B, s *benchServer, frameLimit int64) {
	per := max(1, b.N/benchRounds)
	n := per * benchRounds
	fp := s.framesPer()
	ctx := context.Background()

	ws, _, err := websocket.Dial(ctx, s.url("raw"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	var buf bytes.Buffer

	o := Options{URL: s.url("ahp"), StateDir: b.TempDir(), ClientID: "bench", PingInterval: time.Minute, PingTimeout: time.Minute}
	if frameLimit > 0 {
		o.MaxFrameBytes = frameLimit
	}
	c, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Subscribe(ctx, benchChat, nil); err != nil {
		b.Fatal(err)
	}
	count := strconv.Itoa(per)
	var raw, through time.Duration
	ratios := make([]float64, 0, benchRounds)
	var rawAllocs, clientAllocs uint64
	got := 0
	b.ResetTimer()
	for round := 0; round < benchRounds; round++ {
		m0 := mallocs()
		t0 := time.Now()
		if err := ws.Write(ctx, websocket.MessageText, []byte(count)); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < per*fp; i++ {
			_, r, err := ws.Reader(ctx)
			if err != nil {
				b.Fatal(err)
			}
			buf.Reset()
			if _, err := buf.ReadFrom(r); err != nil {
				b.Fatal(err)
			}
		}
		rawRound := time.Since(t0)
		raw += rawRound
		rawAllocs += mallocs() - m0

		m1 := mallocs()
		t1 := time.Now()
		if err := c.Call(ctx, benchMethod, map[string]int{"count": per}, nil); err != nil {
			b.Fatal(err)
		}
		for want := got + per; got < want; {
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
		round := time.Since(t1)
		through += round
		clientAllocs += mallocs() - m1
		ratios = append(ratios, rawRound.Seconds()/round.Seconds())
	}
	b.StopTimer()
	rawRate := float64(n) / raw.Seconds()
	rate := float64(n) / through.Seconds()
	b.ReportMetric(rawRate, "raw-msg/s")
	b.ReportMetric(rate, "env/s")
	b.ReportMetric(rate/rawRate, "ratio")
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
	b.ReportMetric(float64(clientAllocs)/float64(n), "allocs/env")
	b.ReportMetric(float64(rawAllocs)/float64(n), "raw-allocs/msg")
}
