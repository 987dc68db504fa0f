package ahpclient

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// stateAppDir is the directory under $XDG_STATE_HOME holding ahptui state.
const stateAppDir = "ahptui"

// DefaultStateDir returns $XDG_STATE_HOME/ahptui, falling back to
// ~/.local/state/ahptui as the XDG base-directory spec prescribes.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, stateAppDir), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("ahpclient: state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", stateAppDir), nil
}

// hostKey turns the host part of a WebSocket URL into a file name: the
// lower-cased host:port with anything outside [a-z0-9.-] replaced by '_'.
// The token (query) never takes part.
func hostKey(u *url.URL) string {
	h := strings.ToLower(u.Host)
	if u.Port() == "" {
		switch u.Scheme {
		case "wss":
			h += ":443"
		default:
			h += ":80"
		}
	}
	var b strings.Builder
	for _, r := range h {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// newClientID returns a fresh random client id.
func newClientID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("ahpclient: generate client id: %w", err)
	}
	return "ahptui-" + hex.EncodeToString(b), nil
}

// validClientID reports whether a stored id is usable.
func validClientID(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// loadOrCreateClientID returns the client id persisted for key under
// dir/client-ids, creating and persisting a new one when none exists. When
// persisting fails the fresh id is still returned together with the error
// (the caller logs it and carries on).
func loadOrCreateClientID(dir, key string) (string, error) {
	path := filepath.Join(dir, "client-ids", key)
	b, err := os.ReadFile(path)
	if err == nil {
		if id := strings.TrimSpace(string(b)); validClientID(id) {
			return id, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		id, gerr := newClientID()
		if gerr != nil {
			return "", gerr
		}
		return id, fmt.Errorf("ahpclient: read client id: %w", err)
	}
	id, err := newClientID()
	if err != nil {
		return "", err
	}
	if err := writeFileAtomic(path, []byte(id+"\n")); err != nil {
		return id, fmt.Errorf("ahpclient: persist client id: %w", err)
	}
	return id, nil
}

// writeFileAtomic writes data to path via a temporary file and rename, with
// private permissions.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(tmp)
		return errors.Join(werr, cerr)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
