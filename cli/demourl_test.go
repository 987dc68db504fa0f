//go:build !windows

package cli

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestDemoPrintURLRunsWithoutTheUI: demo --print-url prints the URL on
// stdout, how to use it on stderr, and serves until interrupted.
func TestDemoPrintURLRunsWithoutTheUI(t *testing.T) {
	cfg, err := parseArgs([]string{"demo", "--print-url"}, func(string) string { return "" })
	if err != nil || cfg.cmd != cmdDemo || !cfg.printURL {
		t.Fatalf("%+v %v", cfg, err)
	}
	var out, errs testkit.SyncBuffer
	done := make(chan int, 1)
	go func() { done <- serveDemoURL(stdio{out: &out, err: &errs}, "ws://127.0.0.1:1?tkn=abc") }()
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(errs.String(), "exec URL") {
		if time.Now().After(deadline) {
			t.Fatalf("nothing printed: %q %q", out.String(), errs.String())
		}
		time.Sleep(10 * time.Millisecond) // polling for the output, not timing behaviour
	}
	if !strings.HasPrefix(out.String(), "ws://127.0.0.1:1?tkn=abc\n") {
		t.Fatalf("stdout %q", out.String())
	}
	must(t, syscall.Kill(syscall.Getpid(), syscall.SIGINT))
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d", code)
	}
}
