package ahpclient

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClientIDPersistedPerHost(t *testing.T) {
	dir := t.TempDir()
	a1, err := loadOrCreateClientID(dir, "h1_80")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := loadOrCreateClientID(dir, "h1_80")
	if err != nil || a2 != a1 {
		t.Fatalf("second load = %q, %v; want %q", a2, err, a1)
	}
	b, _ := loadOrCreateClientID(dir, "h2_80")
	if b == a1 {
		t.Fatal("two hosts share a client id")
	}
	st, err := os.Stat(filepath.Join(dir, "client-ids", "h1_80"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("id file: %v perm %v", err, st.Mode().Perm())
	}
	// A corrupt file is replaced.
	if err := os.WriteFile(filepath.Join(dir, "client-ids", "h1_80"), []byte("bad id\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadOrCreateClientID(dir, "h1_80")
	if err != nil || c == a1 || !validClientID(c) {
		t.Fatalf("corrupt file: got %q, %v", c, err)
	}
}

func TestHostKeyIgnoresToken(t *testing.T) {
	u1, _ := url.Parse("ws://LocalHost:8081/path?tkn=secret")
	u2, _ := url.Parse("ws://localhost:8081/other")
	if hostKey(u1) != hostKey(u2) || strings.Contains(hostKey(u1), "secret") {
		t.Fatalf("hostKey %q vs %q", hostKey(u1), hostKey(u2))
	}
	u3, _ := url.Parse("wss://example.com")
	if got := hostKey(u3); got != "example.com_443" {
		t.Fatalf("hostKey = %q", got)
	}
}

func TestDefaultStateDirXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/tmp/xdg-test")
	d, err := DefaultStateDir()
	if err != nil || d != "/tmp/xdg-test/ahptui" {
		t.Fatalf("DefaultStateDir = %q, %v", d, err)
	}
}

func TestOptionsValidate(t *testing.T) {
	cfg, err := Options{URL: "ws://h:1/p?tkn=abc&x=1"}.validate()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "abc" || strings.Contains(cfg.safeURL(), "abc") || !strings.Contains(cfg.dialURL(), "tkn=abc") {
		t.Fatalf("token handling: token=%q safe=%q", cfg.Token, cfg.safeURL())
	}
	if cfg.chunking == nil || cfg.chunking.MaxIncomingFrameBytes != DefaultMaxFrameBytes {
		t.Fatalf("default chunking = %+v", cfg.chunking)
	}
	for _, bad := range []Options{{}, {URL: "ftp://h"}, {URL: "ws://"}, {URL: "ws://h", MaxFrameBytes: 10}} {
		if _, err := bad.validate(); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
	_, err = Options{URL: "ws://h/?tkn=topsecret", MaxFrameBytes: 5}.validate()
	if err == nil || strings.Contains(err.Error(), "topsecret") {
		t.Fatalf("error leaks token or missing: %v", err)
	}
	_, err = Options{URL: "::bad?tkn=topsecret"}.validate()
	if err == nil || strings.Contains(err.Error(), "topsecret") {
		t.Fatalf("error leaks token or missing: %v", err)
	}
}
