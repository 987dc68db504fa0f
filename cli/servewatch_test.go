package cli

import (
	"bufio"
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// TestServeWatchTokenFromConfig: the config file's [serve] watch_token_env
// gives `serve` its watch token: a client with it lists sessions but may
// not create one; a watch token in clear without allow_plaintext_token is
// refused at start without repeating it.
func TestServeWatchTokenFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	must(t, os.WriteFile(cfgPath, []byte("[serve]\nwatch_token_env = \"AHPTUI_TEST_WATCH\"\n"), 0o600))
	t.Setenv("AHPTUI_TEST_WATCH", "watch-from-config-7")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	stderr := &testkit.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- serveMainWith(ctx, []string{"--dir", t.TempDir(), "--ephemeral", "--pace", "0", "--token", "full-token-3"},
			stdio{out: pw, err: stderr}, cfgPath)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v; stderr:\n%s", err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	u, err := url.Parse(strings.TrimSpace(line))
	must(t, err)
	q := u.Query()
	q.Set("tkn", "watch-from-config-7")
	u.RawQuery = q.Encode()

	cctx, ccancel := context.WithTimeout(ctx, testTimeout)
	defer ccancel()
	c, err := ahpclient.New(ahpclient.Options{URL: u.String(), StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(cctx))
	if _, err := c.ListSessions(cctx, 10, ""); err != nil {
		t.Fatalf("the watch token cannot list sessions: %v", err)
	}
	err = c.CreateSession(cctx, ahpwire.CreateSessionParams{Channel: "ahp-session:/watcher"})
	if err == nil || !strings.Contains(err.Error(), "watch") {
		t.Fatalf("createSession with the config's watch token: %v", err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exit %d; stderr:\n%s", code, stderr.String())
	}

	must(t, os.WriteFile(cfgPath, []byte("[serve]\nwatch_token = \"clear-watch-9\"\n"), 0o600))
	var out, errb testkit.SyncBuffer
	if code := serveMainWith(context.Background(), []string{"--ephemeral", "--token", "full-token-3"}, stdio{out: &out, err: &errb}, cfgPath); code != exitUsage {
		t.Fatalf("a watch token in clear: exit %d, stderr %s", code, errb.String())
	}
	if s := errb.String(); !strings.Contains(s, "serve.watch_token") || strings.Contains(s, "clear-watch-9") {
		t.Fatalf("stderr: %s", s)
	}
}
