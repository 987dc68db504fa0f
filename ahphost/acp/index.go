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
	"time"
)

// maxIndex bounds the sessions kept in the index (oldest dropped first).
const maxIndex = 500

// maxIndexBytes bounds the index file read at start: maxIndex records of
// bounded fields (URIs, ids, a directory and a title) stay far below it.
const maxIndexBytes = 16 << 20

// indexLockWait bounds the wait for another process's save; past it the
// change stays pending and goes with the next save.
const indexLockWait = 5 * time.Second

// indexRecord is one session of the index.
type indexRecord struct {
	URI       string `json:"uri"`
	ACPID     string `json:"acpSessionId"`
	Dir       string `json:"dir"`
	Title     string `json:"title,omitempty"`
	CreatedAt string `json:"createdAt"`
}

// index is the bridge's session index, StateDir/acp-NAME.json. Several
// host processes may share a state directory (`ahptui ssh HOST --start`,
// two `serve --agent` with one --state-dir), so the file, not this
// process's memory, is the truth: every change is saved under an advisory
// lock (acp-NAME.json.lock, index_lock_*.go) by re-reading the file,
// applying this process's changes to it and renaming a new file over it;
// reads re-read the file when another process replaced it. recs is the
// file as last read or written with the pending changes applied.
type index struct {
	path    string
	mu      sync.Mutex
	recs    map[string]indexRecord
	pending []indexOp   // changes not saved yet (the lock was busy, a write failed)
	seen    fs.FileInfo // the file recs was read from or written as
}

// indexOp is one change to the index; applying it twice is applying it once.
type indexOp struct {
	remove bool
	title  bool // set rec.Title on rec.URI's record, if any
	rec    indexRecord
}

// apply makes the change in recs.
func (op indexOp) apply(recs map[string]indexRecord) {
	switch {
	case op.remove:
		delete(recs, op.rec.URI)
	case op.title:
		if r, ok := recs[op.rec.URI]; ok {
			r.Title = op.rec.Title
			recs[op.rec.URI] = r
		}
	default:
		r := op.rec
		if old, ok := recs[r.URI]; ok && r.Title == "" {
			r.Title = old.Title
		}
		recs[r.URI] = r
	}
}

// openIndex reads (or starts) the index of agent name under dir.
func openIndex(dir, name string) (*index, error) {
	ix := &index{path: filepath.Join(dir, "acp-"+safeName(name)+".json"), recs: map[string]indexRecord{}}
	recs, info, err := readIndex(ix.path)
	if err != nil {
		return ix, err
	}
	ix.recs, ix.seen = recs, info
	return ix, nil
}

// readIndex reads the index file (empty when there is none) and the file
// it read.
func readIndex(path string) (map[string]indexRecord, fs.FileInfo, error) {
	recs := map[string]indexRecord{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return recs, nil, nil
	}
	if err != nil {
		return recs, nil, fmt.Errorf("acp: session index: %w", err)
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat() // the file read, even if renamed over meanwhile
	if err != nil {
		return recs, nil, fmt.Errorf("acp: session index: %w", err)
	}
	if info.Size() > maxIndexBytes {
		// Not an index this package wrote (maxIndex records): decoding it
		// would take the host's memory (a 1.17 GB one killed it at start).
		return recs, nil, fmt.Errorf("acp: session index %s is %d bytes, more than the %d an index of %d sessions can take; ignored",
			path, info.Size(), int64(maxIndexBytes), maxIndex)
	}
	var list []indexRecord
	if err := json.NewDecoder(f).Decode(&list); err != nil {
		return recs, nil, fmt.Errorf("acp: session index %s: %w", path, err)
	}
	for _, r := range list {
		if r.URI != "" && r.ACPID != "" {
			recs[r.URI] = r
		}
	}
	return recs, info, nil
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
	ix.refreshLocked()
	return sortedRecords(ix.recs)
}

// sortedRecords returns recs newest first.
func sortedRecords(recs map[string]indexRecord) []indexRecord {
	out := make([]indexRecord, 0, len(recs))
	for _, r := range recs {
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
	ix.refreshLocked()
	r, ok := ix.recs[uri]
	return r, ok
}

// put adds or replaces a record (keeping its title) and saves.
func (ix *index) put(r indexRecord) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.changeLocked(indexOp{rec: r})
}

// setTitle records a session's title.
func (ix *index) setTitle(uri, title string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.refreshLocked()
	if r, ok := ix.recs[uri]; ok && r.Title != title {
		ix.changeLocked(indexOp{title: true, rec: indexRecord{URI: uri, Title: title}})
	}
}

// remove forgets a session.
func (ix *index) remove(uri string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.refreshLocked()
	if _, ok := ix.recs[uri]; ok {
		ix.changeLocked(indexOp{remove: true, rec: indexRecord{URI: uri}})
	}
}

// changeLocked applies op here and saves it to the file.
func (ix *index) changeLocked(op indexOp) {
	op.apply(ix.recs)
	ix.pending = append(ix.pending, op)
	ix.saveLocked()
}

// refreshLocked re-reads the file when another process replaced it since
// it was last read or written (an unreadable file keeps what is known).
func (ix *index) refreshLocked() {
	info, err := os.Stat(ix.path)
	if err != nil || ix.seen != nil && os.SameFile(info, ix.seen) && info.ModTime().Equal(ix.seen.ModTime()) && info.Size() == ix.seen.Size() {
		return
	}
	recs, seen, err := readIndex(ix.path)
	if err != nil {
		return
	}
	for _, op := range ix.pending {
		op.apply(recs)
	}
	ix.recs, ix.seen = recs, seen
}

// saveLocked applies the pending changes to the file under the lock and
// replaces it atomically, keeping the newest maxIndex records. Errors are
// ignored (the index is a convenience; the sessions still work): the
// changes stay pending and go with the next save.
func (ix *index) saveLocked() {
	if err := os.MkdirAll(filepath.Dir(ix.path), 0o700); err != nil {
		return
	}
	unlock, err := lockIndex(ix.path+".lock", indexLockWait) // index_lock_*.go
	if err != nil {
		return
	}
	defer unlock()
	recs, _, err := readIndex(ix.path)
	if err != nil { // unreadable: rebuilt from what this process knows
		recs = ix.recs
	}
	for _, op := range ix.pending {
		op.apply(recs)
	}
	list := sortedRecords(recs)
	if len(list) > maxIndex {
		for _, r := range list[maxIndex:] {
			delete(recs, r.URI)
		}
		list = list[:maxIndex]
	}
	info, err := writeIndex(ix.path, list)
	if err != nil {
		return
	}
	ix.recs, ix.seen, ix.pending = recs, info, nil
}

// writeIndex writes list to a new file and renames it over path.
func writeIndex(path string, list []indexRecord) (fs.FileInfo, error) {
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("acp: session index: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("acp: session index: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("acp: session index: %w", err)
	}
	return info, nil
}
