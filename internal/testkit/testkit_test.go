package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSyncBufferConcurrentWriters(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("ab"))
			}
		})
	}
	wg.Wait()
	if b.Len() != 1600 || strings.Count(b.String(), "ab") != 800 {
		t.Fatalf("got %d bytes, %d pairs", b.Len(), strings.Count(b.String(), "ab"))
	}
	b.Reset()
	if b.String() != "" {
		t.Fatal("Reset kept data")
	}
}

// fakeTB records failures instead of failing the test.
type fakeTB struct {
	testing.TB
	failed string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = format
	panic(f)
}
func (f *fakeTB) Errorf(format string, args ...any) { f.failed = format }

func catch(f *fakeTB, fn func()) {
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	fn()
}

func TestCheckNoLeakDetectsAStuckGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("waits LeakGrace")
	}
	// The baseline must not count a goroutine of an earlier test that is
	// still ending: its end would hide the stuck one below.
	before := Goroutines()
	for range 100 {
		time.Sleep(10 * time.Millisecond) // polling for goroutines to end, not for behaviour
		n := Goroutines()
		if n == before {
			break
		}
		before = n
	}
	stop := make(chan struct{})
	go func() { <-stop }()
	f := &fakeTB{TB: t}
	catch(f, func() { CheckNoLeak(f, before) })
	close(stop)
	if !strings.Contains(f.failed, "goroutine leak") {
		t.Fatalf("leak not reported: %q", f.failed)
	}
	CheckNoLeak(t, before) // and it passes once the goroutine ends
}

func TestGoldenComparesAndReportsTheFirstDifference(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("testdata", "golden", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(GoldenPath("sub/x"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Golden(t, "sub/x", "a\nb\n")
	f := &fakeTB{TB: t}
	Golden(f, "sub/x", "a\nc\n")
	if !strings.Contains(f.failed, "differs") {
		t.Fatalf("difference not reported: %q", f.failed)
	}
	if d := FirstDiff("a\nc\n", "a\nb\n"); !strings.Contains(d, "line 2") {
		t.Fatalf("FirstDiff = %q", d)
	}
	f = &fakeTB{TB: t}
	catch(f, func() { Golden(f, "missing", "x") })
	if !strings.Contains(f.failed, "-update") {
		t.Fatalf("missing file not reported: %q", f.failed)
	}
}
