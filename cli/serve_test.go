package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/internal/testkit"
)

func TestParseServeFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		ok   bool
		chk  func(serveConfig) bool
	}{
		{"defaults", nil, true, func(c serveConfig) bool {
			return c.Addr == "127.0.0.1:0" && !c.Options.NoToken && c.Options.Token == "" && c.Options.MaxFrameBytes == 0 &&
				c.Options.Pace == defaultServePace && c.Options.Faults == ahphost.Faults{}
		}},
		{"frame delay", []string{"--frame-delay", "5ms", "--pace", "0"}, true, func(c serveConfig) bool {
			return c.Options.Faults.FrameDelay == 5*time.Millisecond && c.Options.Pace == 0
		}},
		{"negative pace", []string{"--pace", "-1s"}, false, nil},
		{"drop after", []string{"--drop-after", "7"}, true, func(c serveConfig) bool {
			return c.Options.Faults.DropAfterFrames == 7 && c.Options.Faults.SilentFor == 0
		}},
		{"drop after =", []string{"-drop-after=1"}, true, func(c serveConfig) bool { return c.Options.Faults.DropAfterFrames == 1 }},
		{"negative drop after", []string{"--drop-after", "-1"}, false, nil},
		{"bad drop after", []string{"--drop-after", "many"}, false, nil},
		{"silent", []string{"--silent-after", "2s", "--silent-for", "500ms"}, true, func(c serveConfig) bool {
			return c.Options.Faults.SilentAfter == 2*time.Second && c.Options.Faults.SilentFor == 500*time.Millisecond &&
				c.Options.Faults.DropAfterFrames == 0
		}},
		{"silent at once", []string{"--silent-for", "1m"}, true, func(c serveConfig) bool {
			return c.Options.Faults.SilentFor == time.Minute && c.Options.Faults.SilentAfter == 0
		}},
		{"silent after without duration", []string{"--silent-after", "1s"}, false, nil},
		{"negative silent for", []string{"--silent-for", "-1s"}, false, nil},
		{"negative silent after", []string{"--silent-after", "-1s", "--silent-for", "1s"}, false, nil},
		{"bad silent for", []string{"--silent-for", "10"}, false, nil},
		{"all flags", []string{"--addr", "127.0.0.1:9999", "--token", "T", "--dir", "/tmp", "--max-frame", "64k", "--relay-frame-cap", "1m", "--pace", "20ms"}, true,
			func(c serveConfig) bool {
				return c.Addr == "127.0.0.1:9999" && c.Options.Token == "T" && c.Options.Dir == "/tmp" &&
					c.Options.MaxFrameBytes == 65536 && c.Options.RelayFrameCap == 1<<20 && c.Options.Pace == 20*time.Millisecond
			}},
		{"no token", []string{"--without-connection-token"}, true, func(c serveConfig) bool { return c.Options.NoToken }},
		{"plain bytes", []string{"-max-frame=900000"}, true, func(c serveConfig) bool { return c.Options.MaxFrameBytes == 900000 }},
		{"token and no token", []string{"--token", "T", "--without-connection-token"}, false, nil},
		{"empty token", []string{"--token", ""}, false, nil},
		{"bad size", []string{"--max-frame", "lots"}, false, nil},
		{"budget in gigabytes", []string{"--state-budget", "2g"}, true, func(c serveConfig) bool { return c.Options.StateBudget == 2<<30 }},
		{"budget in GiB", []string{"--state-budget", "10GiB"}, true, func(c serveConfig) bool { return c.Options.StateBudget == 10<<30 }},
		{"budget in megabytes", []string{"--state-budget", "512m"}, true, func(c serveConfig) bool { return c.Options.StateBudget == 512<<20 }},
		{"budget too large", []string{"--state-budget", "2048g"}, false, nil},
		{"negative size", []string{"--relay-frame-cap", "-5"}, false, nil},
		{"bad addr", []string{"--addr", "nope"}, false, nil},
		{"unknown flag", []string{"--port", "1"}, false, nil},
		{"stray argument", []string{"extra"}, false, nil},
		{"bad log level", []string{"--log-level", "loud"}, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseServeFlags(tc.args)
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && !tc.chk(c) {
				t.Fatalf("config %+v", c)
			}
		})
	}
	// What serve prints for these (masked as every message it prints)
	// names the flags and keeps every word: a word after "--token" looked
	// like the token to the masker ("--token *** not be empty").
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--token", ""}, "serve: empty token (--token): give one, or use --without-connection-token"},
		{[]string{"--token", "T", "--without-connection-token"}, "serve: give either a token (--token) or --without-connection-token, not both"},
		{[]string{"--max-frame", "5x"}, `serve: --max-frame "5x": want a positive byte count (e.g. 65536, 64k, 16m, 2g)`},
	} {
		_, err := parseServeFlags(tc.args)
		if err == nil || maskBytes([]byte(err.Error())) != tc.want {
			t.Errorf("%q: %v (masked %q), want %q", tc.args, err, maskBytes([]byte(fmt.Sprint(err))), tc.want)
		}
	}
	if _, err := parseServeFlags([]string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
}

func TestServeMain(t *testing.T) {
	for _, withToken := range []bool{true, false} {
		t.Run(map[bool]string{true: "token", false: "no token"}[withToken], func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pr, pw := io.Pipe()
			var stderr testkit.SyncBuffer
			args := []string{"--dir", t.TempDir(), "--state-dir", t.TempDir(), "--log-level", "debug"}
			if withToken {
				args = append(args, "--token", "tok-SECRET-123")
			} else {
				args = append(args, "--without-connection-token")
			}
			done := make(chan int, 1)
			go func() {
				done <- serveMain(ctx, args, pw, &stderr)
				_ = pw.Close()
			}()
			line, err := bufio.NewReader(pr).ReadString('\n')
			must(t, err)
			u := strings.TrimSpace(line)
			if !strings.HasPrefix(u, "ws://127.0.0.1:") {
				t.Fatalf("first line %q", line)
			}
			if withToken != strings.HasSuffix(u, "?tkn=tok-SECRET-123") || (!withToken && strings.Contains(u, "tkn")) {
				t.Fatalf("url %q", u)
			}
			w := dial(t, u, nil)
			w.initialize("c1", nil, nil)
			w.createSession("ahp-session:/s1")
			go func() { _, _ = io.Copy(io.Discard, pr) }()
			cancel()
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
				}
			case <-time.After(testTimeout):
				t.Fatal("serve did not return after cancel")
			}
			logs := stderr.String()
			if strings.Contains(logs, "SECRET") {
				t.Fatalf("token in logs:\n%s", logs)
			}
			if !strings.Contains(logs, "ahptui host ready") || !strings.Contains(logs, "client initialized") {
				t.Fatalf("logs:\n%s", logs)
			}
		})
	}
}

func TestRunServeBadArgs(t *testing.T) {
	var out, errb bytes.Buffer
	if code := serveMain(context.Background(), []string{"--token", "a", "--without-connection-token"}, &out, &errb); code != 2 {
		t.Fatalf("code %d", code)
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "usage:") {
		t.Fatalf("stdout %q stderr %q", out.String(), errb.String())
	}
	if code := serveMain(context.Background(), []string{"--dir", "/nonexistent/dir"}, &out, &errb); code != 1 {
		t.Fatalf("bad dir: code %d", code)
	}
}

// TestServeAddressInUse: serve on an address another program holds says
// so and what to do (another --addr), not the socket call's words alone.
func TestServeAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	var out, errb bytes.Buffer
	args := []string{"--addr", ln.Addr().String(), "--dir", t.TempDir(), "--state-dir", t.TempDir(), "--token", "tok"}
	if code := serveMain(context.Background(), args, &out, &errb); code != 1 {
		t.Fatalf("code %d; stderr %q", code, errb.String())
	}
	if msg := errb.String(); !strings.Contains(msg, ln.Addr().String()+" is in use by another program") || !strings.Contains(msg, "another --addr") || out.Len() != 0 {
		t.Fatalf("stdout %q stderr %q", out.String(), msg)
	}
}
