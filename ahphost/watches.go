package ahphost

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/ahptui/ahptui/ahpwire"
)

// Bounds of the host's resource watches (createResourceWatch): how many
// live at once (host-wide and per connection), how many directories one
// recursive watch may add, how many distinct changes one batch holds (the
// rest are reported as one change of the watched root), how long changes
// are gathered before they are sent, and how long a watch nobody is
// subscribed to is kept (so a reconnecting client does not lose it).
const (
	MaxResourceWatches        = 64
	MaxResourceWatchesPerConn = 16
	MaxWatchedDirs            = 2048
	MaxWatchBatch             = 512
	WatchFlushDelay           = 100 * time.Millisecond
	WatchGrace                = 10 * time.Second
)

// watchEntry is one resource-watch channel and the fsnotify watcher behind
// it. Every field requires h.mu.
type watchEntry struct {
	uri   string
	state ahpwire.ResourceWatchState
	root  string // the watched path
	// ownBelow and stateDir are ahptui's own files the watch leaves out
	// (watchown.go).
	ownBelow []string
	stateDir string
	owner    *conn // the connection that created it (per-connection bound)
	w        *fsnotify.Watcher
	dirs     int
	closed   bool
	stop     chan struct{} // closed by closeWatch: watchLoop closes w and ends
	// pending are the changes not sent yet, by URI, in arrival order.
	pending  map[string]string
	order    []string
	overflow bool
	flush    *time.Timer
	idle     *time.Timer
}

func init() {
	handlers[ahpwire.MethodCreateResourceWatch] = withParams((*conn).createResourceWatch)
}

// createResourceWatch starts watching a file or directory inside a
// session's working directories and answers the channel to subscribe to.
func (c *conn) createResourceWatch(p *ahpwire.CreateResourceWatchParams) (any, func(), *rpcError) {
	if p.Channel != "" && p.Channel != ahpwire.RootURI {
		return nil, nil, errInvalidParams("createResourceWatch must target " + ahpwire.RootURI)
	}
	s := c.h.st
	path, e := s.watchablePath(p.URI)
	if e != nil {
		return nil, nil, e
	}
	if len(s.ext.watches) >= MaxResourceWatches {
		return nil, nil, &rpcError{code: ahpwire.CodePermissionDenied, msg: "too many resource watches on this host"}
	}
	n := 0
	for _, w := range s.ext.watches {
		if w.owner == c {
			n++
		}
	}
	if n >= MaxResourceWatchesPerConn {
		return nil, nil, &rpcError{code: ahpwire.CodePermissionDenied, msg: "too many resource watches on this connection"}
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		c.h.log.Warn("cannot start a file watcher", "err", err)
		return nil, nil, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot watch files on this host"}
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	we := &watchEntry{
		uri:   ahpwire.ResourceWatchScheme + "/" + hex.EncodeToString(id[:]),
		state: ahpwire.ResourceWatchState{Root: p.URI, Recursive: p.Recursive, Excludes: p.Excludes, Includes: p.Includes},
		root:  path, owner: c, w: fw, pending: map[string]string{}, stop: make(chan struct{}),
	}
	we.ownBelow, we.stateDir = s.ownDirs(path)
	if err := we.add(path); err != nil {
		_ = fw.Close() // nothing reads it yet
		return nil, nil, &rpcError{code: ahpwire.CodeNotFound, msg: "cannot watch " + p.URI}
	}
	if p.Recursive {
		we.addTree(path)
	}
	if s.ext.watches == nil {
		s.ext.watches = make(map[string]*watchEntry)
	}
	s.ext.watches[we.uri] = we
	s.idleWatch(we) // released unless subscribed within the grace period
	c.h.wg.Add(1)
	go c.h.watchLoop(we)
	return ahpwire.CreateResourceWatchResult{Channel: we.uri}, nil, nil
}

// watchablePath returns the local path of a file: URI inside a working
// directory of an existing session (or chat), else an error: the host only
// watches what its sessions work on.
func (s *store) watchablePath(uri string) (string, *rpcError) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", errInvalidParams("uri must be a file: URI")
	}
	path := filepath.Clean(u.Path)
	if _, err := os.Stat(path); err != nil {
		return "", &rpcError{code: ahpwire.CodeNotFound, msg: "no such file or directory"}
	}
	for _, se := range s.sessions {
		for _, wd := range se.state.WorkingDirectories {
			if within(path, wd) {
				return path, nil
			}
		}
	}
	for _, se := range s.sessions { // chats on disk included (lazychats.go)
		for _, cs := range se.state.Chats {
			for _, wd := range cs.WorkingDirectories {
				if within(path, wd) {
					return path, nil
				}
			}
		}
	}
	for _, ce := range s.chats {
		for _, wd := range ce.state.WorkingDirectories {
			if within(path, wd) {
				return path, nil
			}
		}
	}
	return "", &rpcError{code: ahpwire.CodePermissionDenied, msg: "only files of a session's working directories can be watched"}
}

// within reports whether path is the directory of file: URI dir or below it.
func within(path, dir string) bool {
	u, err := url.Parse(dir)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return false
	}
	d := filepath.Clean(u.Path)
	return beneath(path, d) || d == string(filepath.Separator)
}

// beneath reports whether path is dir or below it (both clean).
func beneath(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// add watches one path, within the directory bound.
func (we *watchEntry) add(path string) error {
	if we.dirs >= MaxWatchedDirs {
		return os.ErrPermission
	}
	if err := we.w.Add(path); err != nil {
		return err
	}
	we.dirs++
	return nil
}

// addTree watches every directory below path (not following symlinks),
// skipping excluded ones, until the directory bound.
func (we *watchEntry) addTree(path string) {
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == path {
			return nil
		}
		if we.excluded(p) {
			return filepath.SkipDir
		}
		if we.add(p) != nil {
			return filepath.SkipAll
		}
		return nil
	})
}

// excluded reports whether path is filtered out by the watch's excludes
// or is one of ahptui's own files (watchown.go).
func (we *watchEntry) excluded(path string) bool {
	rel, err := filepath.Rel(we.root, path)
	if err != nil || we.ownFile(path) {
		return true
	}
	rel = filepath.ToSlash(rel)
	if we.state.Excludes != nil {
		for _, g := range we.state.Excludes.Items {
			if globMatch(g, rel) {
				return true
			}
		}
	}
	return false
}

// selected reports whether a changed path is reported: not excluded, and
// matching an include when there are includes.
func (we *watchEntry) selected(path string) bool {
	if we.excluded(path) {
		return false
	}
	if we.state.Includes == nil || len(we.state.Includes.Items) == 0 {
		return true
	}
	rel, _ := filepath.Rel(we.root, path)
	for _, g := range we.state.Includes.Items {
		if globMatch(g, filepath.ToSlash(rel)) {
			return true
		}
	}
	return false
}
