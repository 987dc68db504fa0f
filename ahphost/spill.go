package ahphost

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// DefaultSpillBytes bounds the bytes of resources evicted to disk
// (Options.SpillBytes); past it, evicted resources stay in memory, over
// the resource budget, rather than be lost.
const DefaultSpillBytes = 4 << 30

// spill keeps resources evicted from memory in files of a private
// directory (Options.StateDir, else a temporary one), removed when the
// host closes: the store's budget bounds its memory, and a user's finished
// reply, stored as pages, is never lost to eviction (issue 24 item 5).
// It requires h.mu.
type spill struct {
	parent string // Options.StateDir ("" = the system's temporary directory)
	dir    string // created on first use
	bytes  int64
	limit  int64
	failed bool // the directory could not be created or written (logged once)
}

// write stores data for uri and returns its path ("" and an error when it
// cannot: over the limit, or a file error).
func (sp *spill) write(uri string, data []byte) (string, error) {
	if sp.failed {
		return "", fmt.Errorf("spill directory unavailable")
	}
	if sp.bytes+int64(len(data)) > sp.limit {
		return "", fmt.Errorf("spilled resources exceed %d bytes", sp.limit)
	}
	if sp.dir == "" {
		if sp.parent != "" {
			if err := os.MkdirAll(sp.parent, 0o700); err != nil {
				sp.failed = true
				return "", fmt.Errorf("spill directory: %w", err)
			}
		}
		d, err := os.MkdirTemp(sp.parent, "ahptui-resources-")
		if err != nil {
			sp.failed = true
			return "", fmt.Errorf("spill directory: %w", err)
		}
		sp.dir = d
	}
	sum := sha256.Sum256([]byte(uri))
	path := filepath.Join(sp.dir, hex.EncodeToString(sum[:]))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("spill %s: %w", uri, err)
	}
	sp.bytes += int64(len(data))
	return path, nil
}

// forget removes a spilled file (its resource was replaced).
func (sp *spill) forget(path string, size int64) {
	if path != "" && os.Remove(path) == nil {
		sp.bytes -= size
	}
}

// close removes the spill directory.
func (sp *spill) close() {
	if sp.dir != "" {
		_ = os.RemoveAll(sp.dir)
		sp.dir = ""
	}
}
