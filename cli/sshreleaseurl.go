package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/redact"
)

// A release archive can be named by its https URL (--release URL, or
// release = "https://…" in a host's config): it is downloaded, bounded in
// size, with the checksums.txt beside it (as a release publishes them);
// the archive's SHA-256 must be listed there, or nothing is used. Plain
// http is refused: the binary would run on the remote machine.

// maxReleaseArchive bounds a downloaded archive; maxChecksums its
// checksums.txt.
const (
	maxReleaseArchive = 256 << 20
	maxChecksums      = 1 << 20
)

// releaseTimeout bounds one download.
const releaseTimeout = 5 * time.Minute

// releaseHTTP downloads release archives (tests trust their server's
// certificate through it).
var releaseHTTP = &http.Client{Timeout: releaseTimeout}

// isReleaseURL reports whether a --release value is a URL, not a path.
func isReleaseURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// fetchRelease downloads the archive at rawURL and checks it against the
// checksums.txt beside it; it returns the archive and its file name.
func fetchRelease(ctx context.Context, rawURL string) ([]byte, string, error) {
	shown := redact.String(rawURL)
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, "", fmt.Errorf("release archive %s: %w", shown, err)
	}
	if u.Scheme != "https" {
		return nil, "", fmt.Errorf("release archive %s: only https URLs are downloaded (the binary runs on the remote machine)", shown)
	}
	name := path.Base(u.Path)
	if !strings.HasSuffix(name, ".tar.gz") {
		return nil, "", fmt.Errorf("release archive %s: not a .tar.gz (ahptui_VERSION_OS_ARCH.tar.gz)", shown)
	}
	ctx, cancel := context.WithTimeout(ctx, releaseTimeout)
	defer cancel()
	raw, err := download(ctx, u.String(), maxReleaseArchive)
	if err != nil {
		return nil, "", fmt.Errorf("release archive %s: %w", shown, err)
	}
	sums := *u
	sums.Path = path.Join(path.Dir(u.Path), "checksums.txt")
	sums.RawPath, sums.RawQuery, sums.Fragment = "", "", ""
	list, err := download(ctx, sums.String(), maxChecksums)
	if err != nil {
		return nil, "", fmt.Errorf("release archive %s: its checksums.txt: %w (a downloaded archive is used only when the checksums.txt beside it lists it)", shown, err)
	}
	if err := matchSum(name, raw, string(list)); err != nil {
		return nil, "", fmt.Errorf("release archive %s: %w", shown, err)
	}
	return raw, name, nil
}

// download GETs u, refusing a body over limit bytes.
func download(ctx context.Context, u string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	resp, err := releaseHTTP.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is named by the caller, masked
		}
		return nil, fmt.Errorf("download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download: %s", resp.Status)
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("download: %d bytes, more than %d", resp.ContentLength, limit)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("download: more than %d bytes", limit)
	}
	return b, nil
}

// matchSum checks raw's SHA-256 against the line of checksums list that
// names file name.
func matchSum(name string, raw []byte, list string) error {
	sum := sha256.Sum256(raw)
	got := hex.EncodeToString(sum[:])
	for _, line := range strings.Split(list, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 2 && strings.TrimPrefix(fields[1], "*") == name {
			if !strings.EqualFold(fields[0], got) {
				return fmt.Errorf("its SHA-256 (%s) is not the one checksums.txt lists", got)
			}
			return nil
		}
	}
	return fmt.Errorf("%s is not listed in the checksums.txt beside it", name)
}
