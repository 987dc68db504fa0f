//go:build unix

package ahphost

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDurableStream is issue 28's cost of persistence: a 3 MB reply
// in 20–60-byte deltas (`/demo stream 3m`) to one subscriber, with the
// host durable (every delta in its state database before the subscriber
// gets it, grouped per commit) and not. One op is one reply. Compare the
// two sub-benchmarks' µs/delta, measured in one run; rss-MB is the
// process's resident set at the end (run each alone for a clean figure),
// db-rss-MB the part of it that is the database file's mapped pages, and
// cpu-ms/op the process's CPU (host and reading client) per reply.
func BenchmarkDurableStream(b *testing.B) {
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
