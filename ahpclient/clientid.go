package ahpclient

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/internal/filelock"
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

// maxClientIDSlots bounds the client-id slots per host: at most this many
// processes attached to one host keep a persisted id at the same time (any
// further one gets a temporary id).
const maxClientIDSlots = 64

// idSlot is a claimed client-id slot: the id and the open, exclusively
// locked slot file that keeps it to this process until release.
type idSlot struct {
	id   string
	path string
	l    *filelock.Lock
}

// release gives the slot back (the next process may take the id).
func (s *idSlot) release() error {
	if s == nil || s.l == nil {
		return nil
	}
	err := s.l.Close()
	s.l = nil
	return err
}

// slotPath is the file of slot n for key under dir.
func slotPath(dir, key string, n int) string {
	return filepath.Join(dir, "client-ids", key+"."+strconv.Itoa(n))
}

// claimClientID takes the first free client-id slot for key under
// dir/client-ids (files <key>.0, <key>.1, ...): a slot is free when no live
// process holds its exclusive lock (flock on Unix, a share-exclusive open on
// Windows; a crashed process's lock is released by the OS). The id stored in
// the slot is reused, so a restarted TUI keeps its id; an empty or corrupt
// slot gets a fresh id (slot 0 first adopts the id a pre-slot version kept
// in <key>). The lock is held until release, so two live processes never
// share a clientId (their clientSeq echoes would be confused).
//
// When the id cannot be persisted the slot is still returned together with
// the error (the caller logs it and carries on); when no slot can be locked
// at all, slot is nil.
func claimClientID(dir, key string) (*idSlot, error) {
	if err := os.MkdirAll(filepath.Join(dir, "client-ids"), 0o700); err != nil {
		return nil, fmt.Errorf("ahpclient: client id directory: %w", err)
	}
	for n := 0; n < maxClientIDSlots; n++ {
		path := slotPath(dir, key, n)
		l, err := filelock.TryLock(path)
		if errors.Is(err, filelock.ErrBusy) {
			continue // held by a live process (or another Client of this one)
		}
		if err != nil {
			return nil, fmt.Errorf("ahpclient: lock client id slot: %w", err)
		}
		s := &idSlot{path: path, l: l}
		b, rerr := io.ReadAll(io.LimitReader(l.File, 4096))
		if id := strings.TrimSpace(string(b)); rerr == nil && validClientID(id) {
			s.id = id
			return s, nil
		}
		id := ""
		if n == 0 {
			id = legacyClientID(filepath.Join(dir, "client-ids", key))
		}
		if id == "" {
			if id, err = newClientID(); err != nil {
				if rerr := s.release(); rerr != nil {
					err = errors.Join(err, rerr)
				}
				return nil, err
			}
		}
		s.id = id
		if err := writeSlot(l.File, id); err != nil {
			return s, fmt.Errorf("ahpclient: persist client id: %w", err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("ahpclient: all %d client id slots for this host are in use", maxClientIDSlots)
}

// legacyClientID returns the valid id in a pre-slot id file, or "".
func legacyClientID(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if id := strings.TrimSpace(string(b)); validClientID(id) {
		return id
	}
	return ""
}

// writeSlot replaces the locked slot file's content with id. It writes in
// place (not via rename): a rename would put a new, unlocked file at the
// path while this process holds the lock on the old one.
func writeSlot(f *os.File, id string) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(id+"\n"), 0); err != nil {
		return err
	}
	return f.Sync()
}
