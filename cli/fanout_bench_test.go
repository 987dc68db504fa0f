package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkServeFanout is issue 28's fan-out: a real `ahptui serve`
// process (durable, its database in a temporary state directory) streams
// a 3 MB reply in 20–60-byte deltas (`/demo stream 3m`) to 1 and to 50
// subscribed WebSocket clients of this process. Every client must receive
// the reply byte for byte the same (it fails otherwise). host-cpu-ms is
// the serve process's user+system CPU per reply (/proc/PID/stat), the
// figure to compare between clients=1 and clients=50.
func BenchmarkServeFanout(b *testing.B) {
	for _, n := range []int{1, 50} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) { benchFanout(b, n) })
	}
}

func benchFanout(b *testing.B, n int) {
	bin := sharedBinary(b)
	cmd := exec.Command(bin, "serve", "--without-connection-token", "--pace", "0", "--dir", b.TempDir(),
		"--state-dir", b.TempDir(), "--log-level", "error")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+b.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	url := strings.TrimSpace(line)
	owner := dial(b, url, nil)
	owner.initialize("owner", nil, nil)
	owner.createSession("ahp-session:/fan")
	chat := "ahp-chat:/fan"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan [32]byte, n)
	for i := 0; i < n; i++ {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			b.Fatal(err)
		}
		c.SetReadLimit(64 << 20)
		init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"channel":"ahp-root://","protocolVersions":["1.0.0"],"clientId":"sub%d","initialSubscriptions":[%q]}}`, i, chat)
		if err := c.Write(ctx, websocket.MessageText, []byte(init)); err != nil {
			b.Fatal(err)
		}
		go readReplies(ctx, c, results)
	}
	time.Sleep(200 * time.Millisecond) // the subscriptions are answered
	b.ResetTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		c0 := processCPU(cmd.Process.Pid)
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "dispatchAction", "params": map[string]any{
			"channel": chat, "clientSeq": i + 1, "action": map[string]any{
				"type": "chat/turnStarted", "turnId": "t" + strconv.Itoa(i), "startedAt": "2026-12-06T00:00:00.000Z",
				"message": map[string]any{"text": "/demo stream 3m", "origin": map[string]any{"kind": "user"}}}}})
		if err := owner.c.Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		var first [32]byte
		for k := 0; k < n; k++ {
			select {
			case h := <-results:
				if k == 0 {
					first = h
				} else if h != first {
					b.Fatalf("client %d received a different reply", k)
				}
			case <-time.After(time.Minute):
				b.Fatal("the reply did not complete")
			}
		}
		cpu += processCPU(cmd.Process.Pid) - c0
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "host-cpu-ms")
}

// readReplies reads a subscriber's frames and sends the SHA-256 of each
// reply's deltas when its turn completes; the reply must be 3 MiB.
func readReplies(ctx context.Context, c *websocket.Conn, results chan<- [32]byte) {
	var reply bytes.Buffer
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !bytes.Contains(data, []byte(`"method":"action"`)) {
			continue
		}
		var m struct {
			Params struct {
				Action struct {
					Type    string `json:"type"`
					Content string `json:"content"`
				} `json:"action"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Params.Action.Type {
		case "chat/delta":
			reply.WriteString(m.Params.Action.Content)
		case "chat/turnComplete":
			sum := sha256.Sum256(reply.Bytes())
			if reply.Len() != 3<<20 {
				sum = [32]byte{} // a short reply never matches a whole one
			}
			reply.Reset()
			results <- sum
		}
	}
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
