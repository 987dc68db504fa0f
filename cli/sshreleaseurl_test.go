//go:build !windows

package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestReleasePayloadFromURL: --release takes an https URL: the archive is
// downloaded (from a local TLS server) and used when the checksums.txt
// beside it lists its SHA-256; a wrong or missing checksum, a body over
// the bound, plain http and a token in the URL are refused clearly (the
// token never in the message).
func TestReleasePayloadFromURL(t *testing.T) {
	bin := releaseBinary(t)
	name := fmt.Sprintf("ahptui_1.2.3_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	raw := tarGz(t, map[string][]byte{"ahptui": bin})
	sum := sha256.Sum256(raw)
	var sums atomic.Value
	sums.Store(hex.EncodeToString(sum[:]) + "  " + name + "\n")
	var huge atomic.Bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1.2.3/" + name, "/v9/" + name:
			if huge.Load() {
				w.Header().Set("Content-Length", fmt.Sprint(maxReleaseArchive+1))
				_, _ = w.Write(raw)
				return
			}
			_, _ = w.Write(raw)
		case "/v1.2.3/checksums.txt":
			_, _ = w.Write([]byte(sums.Load().(string)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	old := releaseHTTP
	releaseHTTP = srv.Client()
	defer func() { releaseHTTP = old }()

	u := srv.URL + "/v1.2.3/" + name
	pl, err := releasePayload(u, runtime.GOOS, runtime.GOARCH)
	if err != nil || pl.version != "v1.2.3" || !bytes.Equal(pl.data, bin) {
		t.Fatalf("download: %v %q", err, pl.version)
	}

	sums.Store(strings.Repeat("ab", 32) + "  " + name + "\n")
	if _, err := releasePayload(u, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "not the one checksums.txt lists") {
		t.Fatalf("a checksum mismatch accepted: %v", err)
	}
	sums.Store("")
	if _, err := releasePayload(u, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "is not listed in the checksums.txt") {
		t.Fatalf("an unlisted archive accepted: %v", err)
	}
	other := srv.URL + "/v9/" + name // no checksums.txt beside it
	if _, err := releasePayload(other, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "checksums.txt") {
		t.Fatalf("an archive without checksums.txt accepted: %v", err)
	}
	sums.Store(hex.EncodeToString(sum[:]) + "  " + name + "\n")
	huge.Store(true)
	if _, err := releasePayload(u, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("an archive over the bound accepted: %v", err)
	}
	huge.Store(false)
	plain := strings.Replace(u, "https://", "http://", 1)
	if _, err := releasePayload(plain, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "only https") {
		t.Fatalf("plain http accepted: %v", err)
	}
	const secret = "s3cr3t-download-token"
	withToken := strings.Replace(srv.URL, "https://", "https://me:"+secret+"@", 1) + "/v9/" + name
	if _, err := releasePayload(withToken, runtime.GOOS, runtime.GOARCH); err == nil || strings.Contains(err.Error(), secret) {
		t.Fatalf("token in the message: %v", err)
	}
}
