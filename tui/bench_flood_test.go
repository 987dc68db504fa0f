package tui

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/internal/testkit"
)

// serveRig is startLiveRig on a real `ahptui serve --ephemeral` (the demo
// agent) in a process of its own, built and started here and stopped at
// cleanup: this process holds only the client and the TUI.
func serveRig(b testing.TB) (*liveRig, *testkit.SyncBuffer) {
	b.Helper()
	dir := b.TempDir()
	bin := filepath.Join(dir, "ahptui")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/ahptui/ahptui").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--ephemeral", "--token", "flood-bench-token", "--dir", dir)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+b.TempDir(), "XDG_CONFIG_HOME="+b.TempDir(), "AHPTUI_CONFIG=")
	log := &testkit.SyncBuffer{}
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("no URL from serve: %v", err)
	}
	c, err := ahpclient.New(ahpclient.Options{URL: strings.TrimSpace(url), StateDir: b.TempDir(), ExplicitAck: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	r := &liveRig{t: b, client: c}
	r.m = newModel(Options{Backend: liveBackend{c}, Host: "test", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	r.m = send(b, r.m, teaSize(100, 30))
	return r, log
}

// floodSize is the terminal output of BenchmarkTerminalFloodMemory:
// $AHPTUI_FLOOD (a size as /demo flood takes it), 64 MiB by default.
func floodSize(b *testing.B) string {
	s := os.Getenv("AHPTUI_FLOOD")
	if s == "" {
		s = "64m"
	}
	if _, err := demo.ParseSize(s); err != nil {
		b.Fatalf("AHPTUI_FLOOD: %v", err)
	}
	return s
}

// heapSampler records the peak of the live heap objects (runtime/metrics,
// no GC forced) sampled every millisecond until stopped.
type heapSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func sampleHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > h.peak.Load() {
				h.peak.Store(v)
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// end stops the sampling and returns the peak in MiB.
func (h *heapSampler) end() float64 {
	close(h.stop)
	<-h.done
	return float64(h.peak.Load()) / (1 << 20)
}

// BenchmarkTerminalFloodMemory streams a terminal's output (/demo flood,
// 32 KiB actions at full speed) from a real `ahptui serve` (its own
// process, built here) over a real WebSocket to a real client and the
// TUI Model, which shows the terminal and takes the client's events in
// batches as the running UI does (waitForBatch, unpaced), and reports the
// peak live heap of this process (client and UI) while it streams against
// the heap once it is done (the terminal keeps its last 4 MiB), and how
// often the host dropped the client as a slow consumer (its queue to the
// client outgrew 64 MiB; the client recovers the terminal by snapshot).
func BenchmarkTerminalFloodMemory(b *testing.B) {
	size := floodSize(b)
	for i := 0; i < b.N; i++ {
		rig, log := serveRig(b)
		r := openChatOn(b, rig)
		base := heapMB()
		h := sampleHeap()
		r.m = typeText(b, r.m, "/demo flood "+size)
		r.m = send(b, r.m, keyPress("enter"))
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		for !(r.m.chat.State.Current == nil && strings.Contains(viewText(r.m), "The terminal printed")) {
			msg := waitForBatch(ctx, r.m.c.Backend, r.client, time.Time{})()
			if s, ok := msg.(pumpStoppedMsg); ok {
				cancel()
				b.Fatalf("the stream stopped: %v\n%s", s.err, viewText(r.m))
			}
			r.m = send(b, r.m, msg)
		}
		cancel()
		took := time.Since(start)
		peak := h.end()
		runtime.GC()
		after := heapMB()
		b.ReportMetric(base, "base-MiB")
		b.ReportMetric(peak, "peak-MiB")
		b.ReportMetric(after, "after-MiB")
		b.ReportMetric(peak-after, "peak-over-after-MiB")
		b.ReportMetric(took.Seconds(), "stream-s")
		b.ReportMetric(vmHWM(), "VmHWM-MiB")
		b.ReportMetric(float64(strings.Count(log.String(), "slow consumer")), "slow-consumer-drops")
	}
}

// vmHWM is this process's peak resident set (MiB), 0 when unknown.
func vmHWM() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
