package ahpclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// startTLSHost serves a real ahphost (with a token) over TLS on 127.0.0.1
// and returns the host, the server and its wss:// URL with the token.
func startTLSHost(t *testing.T) (*ahphost.Host, *httptest.Server, string) {
	t.Helper()
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewUnstartedServer(h.Handler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted-certificate test's handshake errors
	srv.StartTLS()
	t.Cleanup(srv.Close)
	if h.Token() == "" {
		t.Fatal("host has no token; the test wants one to travel over TLS")
	}
	return h, srv, "wss://" + srv.Listener.Addr().String() + "/?tkn=" + h.Token()
}

// wssRoundTrip opens a session over the client and has a dispatch
// confirmed by the host.
func wssRoundTrip(t *testing.T, c *Client, a *appConsumer, n int) {
	t.Helper()
	if u := c.URL(); !strings.HasPrefix(u, "wss://") || strings.Contains(u, "tkn") {
		t.Fatalf("URL() = %q, want wss:// without the token", u)
	}
	session := sessionURI(n)
	openSession(t, c, a, session)
	seq, err := c.Dispatch(context.Background(), session, &ahpwire.SessionTitleChanged{Title: "over TLS"})
	if err != nil {
		t.Fatal(err)
	}
	confirmedSeq(t, a, session, seq)
}

func TestWSSWithHTTPClient(t *testing.T) {
	_, srv, url := startTLSHost(t)
	o := testOptions(t, url)
	o.HTTPClient = srv.Client()
	c, a := startClient(t, o)
	wssRoundTrip(t, c, a, 51)
}

func TestWSSWithTLSConfigAndReconnect(t *testing.T) {
	base := testkit.Goroutines()
	h, srv, url := startTLSHost(t)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	o := testOptions(t, url)
	o.TLSConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	c, a := startClient(t, o)
	wssRoundTrip(t, c, a, 52)
	// The TLS dialler is reused for reconnects.
	h.DropAll()
	a.waitFor("reconnected over TLS", 10*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	a.drain(t)
	h.DropAll()
	srv.Close()
	testkit.CheckNoLeak(t, base)
}

func TestWSSUntrustedCertificateFails(t *testing.T) {
	h, _, url := startTLSHost(t)
	o := testOptions(t, url)
	c, err := startResult(t, o)
	if err == nil {
		t.Fatal("connected to a server with an untrusted certificate")
	}
	if msg := err.Error(); !strings.Contains(msg, "certificate") || strings.Contains(msg, h.Token()) {
		t.Fatalf("error %q: want a certificate error without the token", msg)
	}
	if s := c.State(); s.Phase != Failed {
		t.Fatalf("state %v, want Failed", s)
	}
}

func TestTLSConfigAndHTTPClientExclusive(t *testing.T) {
	o := Options{URL: "wss://127.0.0.1:1/", StateDir: t.TempDir(), TLSConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
	o.HTTPClient = &http.Client{}
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("New with both: %v", err)
	}
}
