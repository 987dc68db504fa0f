package acp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// maxIndex bounds the sessions kept in the index (oldest dropped first).
const maxIndex = 500

// indexRecord is one session of the index.
type indexRecord struct {
	URI       string `json:"uri"`
	ACPID     string `json:"acpSessionId"`
	Dir       string `json:"dir"`
	Title     string `json:"title,omitempty"`
	CreatedAt string `json:"createdAt"`
}

// index is the bridge's session index, StateDir/acp-NAME.json, rewritten
// atomically on every change.
type index struct {
	path string
	mu   sync.Mutex
	recs map[string]indexRecord
}

// openIndex reads (or starts) the index of agent name under dir.
func openIndex(dir, name string) (*index, error) {
	ix := &index{path: filepath.Join(dir, "acp-"+safeName(name)+".json"), recs: map[string]indexRecord{}}
	b, err := os.ReadFile(ix.path)
	if errors.Is(err, fs.ErrNotExist) {
		return ix, nil
	}
	if err != nil {
		return ix, fmt.Errorf("acp: session index: %w", err)
	}
	var recs []indexRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		return ix, fmt.Errorf("acp: session index %s: %w", ix.path, err)
	}
	for _, r := range recs {
		if r.URI != "" && r.ACPID != "" {
			ix.recs[r.URI] = r
		}
	}
	return ix, nil
}

// safeName keeps letters, digits, '-' and '_' of an agent name.
func safeName(s string) string {
	out := []rune{}
	for _, r := range s {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return "agent"
	}
	return string(out)
}

// list returns the records, newest first.
func (ix *index) list() []indexRecord {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.sortedLocked()
}

func (ix *index) sortedLocked() []indexRecord {
	out := make([]indexRecord, 0, len(ix.recs))
	for _, r := range ix.recs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return out[i].URI < out[j].URI
	})
	return out
}

// get returns the record of a session.
func (ix *index) get(uri string) (indexRecord, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	r, ok := ix.recs[uri]
	return r, ok
}

// put adds or replaces a record (keeping its title) and saves.
func (ix *index) put(r indexRecord) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if old, ok := ix.recs[r.URI]; ok && r.Title == "" {
		r.Title = old.Title
	}
	ix.recs[r.URI] = r
	ix.saveLocked()
}

// setTitle records a session's title.
func (ix *index) setTitle(uri, title string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if r, ok := ix.recs[uri]; ok && r.Title != title {
		r.Title = title
		ix.recs[uri] = r
		ix.saveLocked()
	}
}

// remove forgets a session.
func (ix *index) remove(uri string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.recs[uri]; ok {
		delete(ix.recs, uri)
		ix.saveLocked()
	}
}

// saveLocked writes the index atomically (errors are ignored: the index
// is a convenience; the sessions still work).
func (ix *index) saveLocked() {
	recs := ix.sortedLocked()
	if len(recs) > maxIndex {
		for _, r := range recs[maxIndex:] {
			delete(ix.recs, r.URI)
		}
		recs = recs[:maxIndex]
	}
	b, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(ix.path), 0o700); err != nil {
		return
	}
	tmp := ix.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return
	}
	_ = os.Rename(tmp, ix.path)
}
