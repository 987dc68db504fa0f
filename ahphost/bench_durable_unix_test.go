//go:build unix

package ahphost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/coder/websocket"
)

// BenchmarkDurableStream is issue 28's cost of persistence: a 3 MB reply
// in 20–60-byte deltas (`/demo stream 3m`) from the demo agent through
// the host to one WebSocket subscriber, with the host durable (every
// delta in its state database before the subscriber gets it, grouped per
// commit) and not. The subscriber reads the reply as a client showing it
// does (readReply): past its first 256 KiB a reply streams as contentRef
// pages, and each is read with resourceRead as its part arrives; a
// round's two replies must be the same (their pages' SHA-256 and their
// delta counts).
//
// The sub-benchmark "interleaved" measures the ratio: two hosts in one
// process, one durable and one not, stream replies in turn (off, on, on,
// off, …, so neither always goes first), one op being one reply of each.
// A collection runs before every reply so that neither pays for the
// other's garbage, and the next reply waits until the durable host has
// written everything (settle: a long chat's snapshot is written after the
// batch that ended its turn), so that neither pays for what the other
// does after its reply; that work is counted in its reply's CPU.
//
// It reports the median wall time per reply of each (off-ms, on-ms),
// on/off (the ratio of those medians), on/off-max (the worst ratio of one
// round's two replies), the process CPU per reply of each (host and
// reading client: off-cpu-ms, on-cpu-ms, cpu-on/off), on-db-MB/reply
// (bbolt's page writes per durable reply), and on-late/early and
// on-cpu-late/early: the median wall time and CPU of the durable host's
// last third of replies over those of its first third (all into one
// chat: 1 when the cost per reply does not grow with the chat or the
// database), page-MB/reply (the pages the subscriber read of each reply).
// go tool pprof -tagfocus host=on tells the hosts apart in a
// CPU profile.
//
// "persist=off" and "persist=on" stream alone, one host each, for the
// memory figures: rss-MB is the process's resident set at the end,
// db-rss-MB the part of it that is the database file's mapped pages.
func BenchmarkDurableStream(b *testing.B) {
	b.Run("interleaved", benchDurableInterleaved)
	for _, c := range []struct {
		name    string
		durable bool
	}{{"persist=off", false}, {"persist=on", true}} {
		b.Run(c.name, func(b *testing.B) {
			opts := Options{}
			if c.durable {
				opts.Durable, opts.StateDir = true, b.TempDir()
			}
			cpu0 := processCPU()
			benchStream(b, opts, 3<<20, "/demo stream 3m")
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(rssBytes())/(1<<20), "rss-MB")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
			b.ReportMetric(float64(ms.HeapSys-ms.HeapReleased)/(1<<20), "heap-held-MB")
			b.ReportMetric(float64(mappedRSS("state.db"))/(1<<20), "db-rss-MB")
		})
	}
}

// benchDurableInterleaved is BenchmarkDurableStream/interleaved.
func benchDurableInterleaved(b *testing.B) {
	const prompt = "/demo stream 3m"
	var off, on *streamRig
	pprof.Do(context.Background(), pprof.Labels("host", "off"), func(context.Context) { off = newStreamRig(b, Options{}) })
	pprof.Do(context.Background(), pprof.Labels("host", "on"), func(context.Context) {
		on = newStreamRig(b, Options{Durable: true, StateDir: b.TempDir()})
	})
	for range 4 { // warm-up: the agents start, the first chat is read, the heap grows to its working size
		off.reply(b, prompt)
		on.reply(b, prompt)
	}
	var wall, cpu [2][]time.Duration // [0] off, [1] on
	var written []int64              // database bytes written per durable reply
	worst, pageBytes := 0.0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		order := []int{0, 1}
		if i%2 == 1 {
			order = []int{1, 0}
		}
		var round [2]time.Duration
		var got [2]streamResult
		for _, k := range order {
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
			r := off
			if k == 1 {
				r = on
			}
			w0 := r.written()
			c0, t0 := processCPU(), time.Now()
			got[k] = r.reply(b, prompt)
			round[k] = time.Since(t0)
			b.StopTimer()
			r.settle(b) // what the host does after the reply (a snapshot) counts in its CPU
			b.StartTimer()
			if k == 1 {
				written = append(written, r.written()-w0)
			}
			wall[k] = append(wall[k], round[k])
			cpu[k] = append(cpu[k], processCPU()-c0)
		}
		worst = max(worst, float64(round[1])/float64(round[0]))
		if got[0].pageBytes < 5<<19 || got[1].pageSum != got[0].pageSum || got[1].deltas != got[0].deltas {
			b.Fatalf("round %d: the hosts' replies differ or are short: off %d deltas + %d bytes of pages, on %d + %d",
				i, got[0].deltas, got[0].pageBytes, got[1].deltas, got[1].pageBytes)
		}
		pageBytes = got[1].pageBytes
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(median(wall[0])), "off-ms")
	b.ReportMetric(ms(median(wall[1])), "on-ms")
	b.ReportMetric(float64(median(wall[1]))/float64(median(wall[0])), "on/off")
	b.ReportMetric(worst, "on/off-max")
	b.ReportMetric(ms(median(cpu[0])), "off-cpu-ms")
	b.ReportMetric(ms(median(cpu[1])), "on-cpu-ms")
	b.ReportMetric(float64(median(cpu[1]))/float64(max(1, median(cpu[0]))), "cpu-on/off")
	var sum int64
	for _, w := range written {
		sum += w
	}
	b.ReportMetric(float64(sum)/float64(len(written))/(1<<20), "on-db-MB/reply")
	b.ReportMetric(float64(pageBytes)/(1<<20), "page-MB/reply")
	if n := len(wall[1]) / 3; n > 0 {
		b.ReportMetric(float64(median(wall[1][len(wall[1])-n:]))/float64(median(wall[1][:n])), "on-late/early")
		b.ReportMetric(float64(median(cpu[1][len(cpu[1])-n:]))/float64(max(1, median(cpu[1][:n]))), "on-cpu-late/early")
	}
}

// median is the median of ds (0 when empty); ds is not changed.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// streamRig is a host with the demo agent, an owner that prompts in one
// chat and a subscriber of that chat that reads every reply to its end.
type streamRig struct {
	h     *Host
	owner *wsClient
	chat  string
	sent  int
	done  chan streamResult
}

// streamResult is what the subscriber read of one reply: its inline
// deltas (counted, not decoded) and its pages (read and hashed).
type streamResult struct {
	deltas    int
	pageBytes int
	pageSum   [32]byte
	err       error
}

// newStreamRig starts a host with opts (no token) and its two clients.
func newStreamRig(b testing.TB, opts Options) *streamRig {
	opts.NoToken = true
	h, u := startHost(b, opts)
	r := &streamRig{h: h, owner: dial(b, u, nil), done: make(chan streamResult, 1)}
	r.owner.initialize("owner", nil, nil)
	r.chat = r.owner.createSession("ahp-session:/bench")
	sub := dial(b, u, nil)
	sub.initialize("sub", []string{r.chat}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	go readReply(ctx, sub.c, r.done)
	return r
}

// readReply reads a subscriber's frames and sends what it read of each
// reply once its turn has completed and every page has been read. Past
// LargePartBytes the host streams a reply as contentRef pages (all but
// the first 256 KiB of a 3 MB one); like a client showing the reply, the
// reader asks for each page with resourceRead as its part arrives, so a
// reply counts as received when its text is, not when its references
// are. Only the page reads and their answers are decoded: the inline
// deltas are counted.
func readReply(ctx context.Context, c *websocket.Conn, done chan<- streamResult) {
	var res streamResult
	hash := sha256.New()
	pages := map[int][]byte{} // answers read, by request id
	next, ended := 0, false   // the next page's request id; the turn has completed
	first, want := 1, 0       // the first request id of this reply; its requests
	finish := func() {
		if !ended || len(pages) < want-first+1 && want != 0 {
			return
		}
		for id := first; id <= want; id++ { // pages in the reply's order
			hash.Write(pages[id])
			res.pageBytes += len(pages[id])
		}
		copy(res.pageSum[:], hash.Sum(nil))
		done <- res
		res, ended, first, want = streamResult{}, false, next+1, 0
		hash.Reset()
		clear(pages)
	}
	fail := func(err error) {
		if ctx.Err() == nil {
			done <- streamResult{err: err}
		}
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			fail(err)
			return
		}
		switch {
		case bytes.HasPrefix(data, []byte(`{"jsonrpc":"2.0","id":`)):
			var m struct {
				ID     int `json:"id"`
				Result *struct {
					Data     string `json:"data"`
					Encoding string `json:"encoding"`
				} `json:"result"`
				Error *ahpwire.RPCError `json:"error"`
			}
			if err := json.Unmarshal(data, &m); err != nil || m.Result == nil {
				fail(fmt.Errorf("resourceRead: %v %v", err, m.Error))
				return
			}
			page := []byte(m.Result.Data)
			if m.Result.Encoding == "base64" {
				if page, err = base64.StdEncoding.DecodeString(m.Result.Data); err != nil {
					fail(err)
					return
				}
			}
			pages[m.ID] = page
			finish()
		case bytes.Contains(data, []byte(`"chat/delta"`)):
			res.deltas++
		case bytes.Contains(data, []byte(`"contentRef"`)):
			var m struct {
				Params struct {
					Action struct {
						Part struct {
							URI string `json:"uri"`
						} `json:"part"`
					} `json:"action"`
				} `json:"params"`
			}
			if err := json.Unmarshal(data, &m); err != nil || m.Params.Action.Part.URI == "" {
				fail(fmt.Errorf("contentRef part: %v %.200s", err, data))
				return
			}
			next++
			want = next
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resourceRead","params":{"channel":"ahp-root://","uri":%q}}`, next, m.Params.Action.Part.URI)
			if err := c.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
				fail(err)
				return
			}
		case bytes.Contains(data, []byte(`"chat/turnComplete"`)):
			ended = true
			finish()
		}
	}
}

// written is the bytes the host's database wrote so far (0 when it has
// none).
func (r *streamRig) written() int64 {
	if p := r.h.st.persist; p != nil {
		return p.db.Written()
	}
	return 0
}

// settle waits until the rig's host has nothing left to write, then a
// little more (what follows a commit: sweeps, releases).
func (r *streamRig) settle(b testing.TB) {
	deadline := time.Now().Add(time.Minute)
	for !r.h.persistIdle() {
		if time.Now().After(deadline) {
			b.Fatal("the host did not finish writing")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond)
}

// reply prompts once and waits until the subscriber read the reply's end
// and every page of it.
func (r *streamRig) reply(b testing.TB, prompt string) streamResult {
	r.sent++
	r.owner.sendMessage(r.chat, "t"+strconv.Itoa(r.sent), prompt, uint64(r.sent))
	select {
	case res := <-r.done:
		if res.err != nil {
			b.Fatal(res.err)
		}
		if res.deltas == 0 {
			b.Fatalf("reply %d: no delta read", r.sent)
		}
		return res
	case <-time.After(5 * time.Minute):
		b.Fatal("the reply did not complete")
	}
	return streamResult{}
}

// mappedRSS is the resident bytes of the process's mappings of files
// named name (/proc/self/smaps; 0 where there is none).
func mappedRSS(name string) int64 {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0
	}
	var total int64
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			in = strings.HasSuffix(line, "/"+name)
		case in && len(f) >= 2 && f[0] == "Rss:":
			n, _ := strconv.ParseInt(f[1], 10, 64)
			total += n << 10
		}
	}
	return total
}

// processCPU is the process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssBytes is the process's resident set (VmRSS; 0 where /proc is not).
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	return 0
}
