package ahpclient

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

func TestClientIDPersistedPerHost(t *testing.T) {
	dir := t.TempDir()
	s1, err := claimClientID(dir, "h1_80")
	if err != nil {
		t.Fatal(err)
	}
	a1 := s1.id
	if err := s1.release(); err != nil {
		t.Fatal(err)
	}
	s2, err := claimClientID(dir, "h1_80")
	if err != nil || s2.id != a1 {
		t.Fatalf("second claim = %v, %v; want %q", s2, err, a1)
	}
	defer s2.release()
	s3, _ := claimClientID(dir, "h2_80")
	defer s3.release()
	if s3.id == a1 {
		t.Fatal("two hosts share a client id")
	}
	st, err := os.Stat(slotPath(dir, "h1_80", 0))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("id file: %v perm %v", err, st.Mode().Perm())
	}
	// A corrupt slot is rewritten with a fresh id.
	_ = s2.release()
	if err := os.WriteFile(slotPath(dir, "h1_80", 0), []byte("bad id\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	s4, err := claimClientID(dir, "h1_80")
	if err != nil || s4.id == a1 || !validClientID(s4.id) {
		t.Fatalf("corrupt file: got %v, %v", s4, err)
	}
	_ = s4.release()
	if b, _ := os.ReadFile(slotPath(dir, "h1_80", 0)); strings.TrimSpace(string(b)) != s4.id {
		t.Fatalf("slot holds %q, want %q", b, s4.id)
	}
}

// Slot 0 adopts the id a pre-slot version persisted in client-ids/<host>.
func TestClientIDAdoptsLegacyFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "client-ids"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client-ids", "h_80"), []byte("ahptui-legacy\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s0, err := claimClientID(dir, "h_80")
	if err != nil || s0.id != "ahptui-legacy" {
		t.Fatalf("slot 0 = %v, %v; want the legacy id", s0, err)
	}
	defer s0.release()
	s1, err := claimClientID(dir, "h_80")
	if err != nil || s1.id == "ahptui-legacy" {
		t.Fatalf("slot 1 = %v, %v; must not reuse the legacy id", s1, err)
	}
	defer s1.release()
}

// Two live Clients of one host never share a clientId; a Client started
// after one closed takes the freed slot and its id; one started after all
// closed reuses the first id (a restarted TUI keeps its identity).
func TestClientIDBelongsToOneLiveClient(t *testing.T) {
	dir := t.TempDir()
	o := Options{URL: "ws://127.0.0.1:9/x", StateDir: dir}
	newC := func() *Client {
		t.Helper()
		c, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c1, c2 := newC(), newC()
	if c1.ClientID() == c2.ClientID() {
		t.Fatalf("two live clients share clientId %q", c1.ClientID())
	}
	id1, id2 := c1.ClientID(), c2.ClientID()
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	c3 := newC()
	if c3.ClientID() != id1 {
		t.Fatalf("third client got %q, want the freed %q", c3.ClientID(), id1)
	}
	c4 := newC()
	if id := c4.ClientID(); id == id1 || id == id2 {
		t.Fatalf("fourth client reuses a live id %q", id)
	}
	for _, c := range []*Client{c2, c3, c4} {
		_ = c.Close()
	}
	c5 := newC()
	defer c5.Close()
	if c5.ClientID() != id1 {
		t.Fatalf("restarted client got %q, want %q", c5.ClientID(), id1)
	}
	// An explicit ClientID takes no slot.
	o.ClientID = "fixed"
	c6 := newC()
	defer c6.Close()
	if c6.ClientID() != "fixed" || c6.idSlot != nil {
		t.Fatalf("explicit id: %q slot %v", c6.ClientID(), c6.idSlot)
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
	x := t.TempDir()
	t.Setenv("XDG_STATE_HOME", x)
	d, err := DefaultStateDir()
	if err != nil || d != filepath.Join(x, "ahptui") {
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

// Two clients of one host sharing a state directory (two TUIs) get
// different clientIds, so each recognises only its own echoes.
func TestTwoClientsOfOneHostKeepEchoesApart(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	dir := t.TempDir()
	o1, o2 := testOptions(t, url), testOptions(t, url)
	o1.StateDir, o2.StateDir = dir, dir
	c1, a1 := startClient(t, o1)
	c2, a2 := startClient(t, o2)
	if c1.ClientID() == c2.ClientID() {
		t.Fatalf("shared clientId %q", c1.ClientID())
	}
	chat := openSession(t, c1, a1, sessionURI(40))
	if got := openSession(t, c2, a2, sessionURI(40)); got != chat {
		t.Fatalf("chat %s vs %s", got, chat)
	}
	runTurn(t, c1, a1, chat, "t1", "hello")
	own := func(a *appConsumer) (own, seen bool) {
		evs := a.waitFor("turnStarted", 15*time.Second, func(evs []Event) bool {
			return hasEvent(evs, func(e EnvelopeEvent) bool { return e.Envelope.Action.ActionType() == ahpwire.ActionChatTurnStarted })
		})
		for _, e := range evs {
			if en, ok := e.(EnvelopeEvent); ok && en.Envelope.Action.ActionType() == ahpwire.ActionChatTurnStarted {
				return en.Own, true
			}
		}
		return false, false
	}
	if o, _ := own(a1); !o {
		t.Fatal("dispatching client does not see its echo as its own")
	}
	if o, _ := own(a2); o {
		t.Fatal("the other client took the echo as its own")
	}
}
