package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkServeFanout is issue 28's fan-out: two real `ahptui serve`
// processes (durable, each with its database in a temporary state
// directory) stream a 3 MB reply in 20–60-byte deltas (`/demo stream 3m`),
// one to 1 subscribed WebSocket client of this process and the other to
// 50. The replies alternate between the two hosts, so both are measured
// under the same load, and the ratio is of one run. Every client must
// receive the reply byte for byte the same (it fails otherwise).
// one-cpu-ms and fifty-cpu-ms are each host's user+system CPU per reply
// (/proc/PID/stat); fifty/one is their ratio (issue 28: under 3).
// AHPTUI_FANOUT_CPUPROFILE=P writes the hosts' CPU profiles to P.1 and P.50.
func BenchmarkServeFanout(b *testing.B) {
	one, fifty := startFanHost(b, 1), startFanHost(b, 50)
	time.Sleep(200 * time.Millisecond) // the subscriptions are answered
	b.ResetTimer()
	var cpuOne, cpuFifty time.Duration
	var writes int64
	for i := 0; i < b.N; i++ {
		cpuOne += one.reply(b, i)
		w0 := procWrites(fifty.cmd.Process.Pid)
		cpuFifty += fifty.reply(b, i)
		writes += procWrites(fifty.cmd.Process.Pid) - w0
	}
	b.ReportMetric(float64(writes)/float64(b.N), "fifty-writes")
	b.StopTimer()
	b.ReportMetric(float64(cpuOne.Milliseconds())/float64(b.N), "one-cpu-ms")
	b.ReportMetric(float64(cpuFifty.Milliseconds())/float64(b.N), "fifty-cpu-ms")
	if cpuOne > 0 {
		b.ReportMetric(float64(cpuFifty)/float64(cpuOne), "fifty/one")
	}
}

// fanHost is a `serve` process with n clients subscribed to one chat.
type fanHost struct {
	cmd     *exec.Cmd
	owner   *rawConn
	chat    string
	n       int
	results chan [32]byte
}

// startFanHost starts a host and subscribes n clients to its chat.
func startFanHost(b *testing.B, n int) *fanHost {
	bin := sharedBinary(b)
	cmd := exec.Command(bin, "serve", "--without-connection-token", "--pace", "0", "--dir", b.TempDir(),
		"--state-dir", b.TempDir(), "--log-level", "error")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+b.TempDir(), "AHPTUI_CPUPROFILE=")
	if prof := os.Getenv("AHPTUI_FANOUT_CPUPROFILE"); prof != "" { // each host's, written at exit
		cmd.Env = append(cmd.Env, fmt.Sprintf("AHPTUI_CPUPROFILE=%s.%d", prof, n))
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }) // (a CPU profile is written at exit)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	url := strings.TrimSpace(line)
	h := &fanHost{cmd: cmd, owner: dial(b, url, nil), chat: "ahp-chat:/fan", n: n, results: make(chan [32]byte, n)}
	h.owner.initialize("owner", nil, nil)
	h.owner.createSession("ahp-session:/fan")
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	for i := 0; i < n; i++ {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			b.Fatal(err)
		}
		c.SetReadLimit(64 << 20)
		init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"channel":"ahp-root://","protocolVersions":["1.0.0"],"clientId":"sub%d","initialSubscriptions":[%q]}}`, i, h.chat)
		if err := c.Write(ctx, websocket.MessageText, []byte(init)); err != nil {
			b.Fatal(err)
		}
		go readReplies(ctx, c, h.results)
	}
	return h
}

// reply streams the i-th reply and waits until every client has all of
// it, the same; it returns the host's CPU time for it.
func (h *fanHost) reply(b *testing.B, i int) time.Duration {
	c0 := processCPU(h.cmd.Process.Pid)
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "dispatchAction", "params": map[string]any{
		"channel": h.chat, "clientSeq": i + 1, "action": map[string]any{
			"type": "chat/turnStarted", "turnId": "t" + strconv.Itoa(i), "startedAt": "2026-12-06T00:00:00.000Z",
			"message": map[string]any{"text": "/demo stream 3m", "origin": map[string]any{"kind": "user"}}}}})
	if err := h.owner.c.Write(context.Background(), websocket.MessageText, msg); err != nil {
		b.Fatal(err)
	}
	var first [32]byte
	for k := 0; k < h.n; k++ {
		select {
		case sum := <-h.results:
			if sum == ([32]byte{}) {
				b.Fatalf("client %d of %d received a short reply", k, h.n)
			}
			if k == 0 {
				first = sum
			} else if sum != first {
				b.Fatalf("client %d of %d received a different reply", k, h.n)
			}
		case <-time.After(time.Minute):
			b.Fatal("the reply did not complete")
		}
	}
	return processCPU(h.cmd.Process.Pid) - c0
}

// readReplies reads a subscriber's frames and sends the SHA-256 of each
// whole reply when its turn has completed: what streamed inline as
// chat/delta and, in their places, the pages of its contentRef parts
// (past LargePartBytes the host streams a reply as pages), each read with
// resourceRead as its part arrives, as a client showing the reply does.
// A reply that is not 3 MiB sends a zero sum.
func readReplies(ctx context.Context, c *websocket.Conn, results chan<- [32]byte) {
	var pieces []string
	pending := map[int]int{} // resourceRead id → its piece
	nextID, ended := 100, false
	finish := func() {
		if !ended || len(pending) > 0 {
			return
		}
		reply := strings.Join(pieces, "")
		sum := sha256.Sum256([]byte(reply))
		if len(reply) != 3<<20 {
			sum = [32]byte{}
		}
		pieces, ended = pieces[:0], false
		results <- sum
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct {
			ID     *int `json:"id"`
			Result *struct {
				Data     string `json:"data"`
				Encoding string `json:"encoding"`
			} `json:"result"`
			Params struct {
				Action struct {
					Type    string `json:"type"`
					Content string `json:"content"`
					Part    struct {
						Kind string `json:"kind"`
						URI  string `json:"uri"`
					} `json:"part"`
				} `json:"action"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ID != nil && m.Result != nil {
			if i, ok := pending[*m.ID]; ok {
				page := m.Result.Data
				if m.Result.Encoding == "base64" {
					b, _ := base64.StdEncoding.DecodeString(page)
					page = string(b)
				}
				pieces[i] = page
				delete(pending, *m.ID)
				finish()
			}
			continue
		}
		switch a := m.Params.Action; a.Type {
		case "chat/delta":
			pieces = append(pieces, a.Content)
		case "chat/responsePart":
			if a.Part.Kind != "contentRef" {
				continue
			}
			nextID++
			pending[nextID] = len(pieces)
			pieces = append(pieces, "")
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resourceRead","params":{"channel":"ahp-root://","uri":%q}}`, nextID, a.Part.URI)
			if c.Write(ctx, websocket.MessageText, []byte(req)) != nil {
				return
			}
		case "chat/turnComplete":
			ended = true
			finish()
		}
	}
}

// procWrites is the write system calls a process made (/proc/PID/io's
// syscw; Linux, 0 elsewhere).
func procWrites(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// processCPU is a process's user+system CPU time (Linux; 0 elsewhere).
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}
