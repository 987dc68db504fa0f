package ahphost

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/ahptui/ahptui/ahpwire"
)

// watchLoop turns one watcher's events into pending changes until the
// watch is closed (or the host), then closes the watcher: it is the
// watcher's only reader, so closing it here never waits on the host lock.
func (h *Host) watchLoop(we *watchEntry) {
	defer h.wg.Done()
	defer we.w.Close()
	for {
		select {
		case ev, ok := <-we.w.Events:
			if !ok {
				return
			}
			h.mu.Lock()
			if !we.closed {
				h.st.watchEvent(we, ev)
			}
			h.mu.Unlock()
		case err, ok := <-we.w.Errors:
			if !ok {
				return
			}
			h.log.Debug("file watcher error", "watch", we.uri, "err", err)
			h.mu.Lock()
			if !we.closed {
				we.overflow = true // events may be lost: report the root changed
				h.st.scheduleFlush(we)
			}
			h.mu.Unlock()
		case <-we.stop:
			return
		case <-h.ctx.Done():
			h.mu.Lock()
			h.st.closeWatch(we)
			h.mu.Unlock()
			return
		}
	}
}

// watchEvent records one fsnotify event as a pending change.
func (s *store) watchEvent(we *watchEntry, ev fsnotify.Event) {
	if !we.selected(ev.Name) {
		return
	}
	kind := ahpwire.ResourceUpdated
	switch {
	case ev.Has(fsnotify.Create):
		kind = ahpwire.ResourceAdded
		if we.state.Recursive {
			if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() && we.add(ev.Name) == nil {
				we.addTree(ev.Name)
				// What was made in it before it was watched is new too.
				s.addedUnder(we, ev.Name)
			}
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		kind = ahpwire.ResourceDeleted
	case ev.Has(fsnotify.Chmod):
		return
	}
	uri := fileURI(ev.Name)
	if _, seen := we.pending[uri]; !seen {
		if len(we.order) >= MaxWatchBatch {
			we.overflow = true
		} else {
			we.order = append(we.order, uri)
		}
	}
	if prev := we.pending[uri]; !(prev == ahpwire.ResourceAdded && kind == ahpwire.ResourceUpdated) {
		we.pending[uri] = kind // added then written stays added
	}
	s.scheduleFlush(we)
}

// addedUnder records everything below a directory that just appeared as
// added (within the batch bound).
func (s *store) addedUnder(we *watchEntry, dir string) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if len(we.order) >= MaxWatchBatch {
			we.overflow = true
			return filepath.SkipAll
		}
		if d.IsDir() && we.excluded(p) {
			return filepath.SkipDir
		}
		if !we.selected(p) {
			return nil
		}
		uri := fileURI(p)
		if _, seen := we.pending[uri]; !seen {
			we.order = append(we.order, uri)
			we.pending[uri] = ahpwire.ResourceAdded
		}
		return nil
	})
}

// scheduleFlush sends the pending changes after WatchFlushDelay (editors
// write a file in bursts: one batch, not one action per write).
func (s *store) scheduleFlush(we *watchEntry) {
	if we.flush != nil {
		return
	}
	h := s.h
	we.flush = time.AfterFunc(WatchFlushDelay, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		we.flush = nil
		if !we.closed {
			s.flushWatch(we)
		}
	})
}

// flushWatch emits resourceWatch/changed with the pending changes.
func (s *store) flushWatch(we *watchEntry) {
	items := make([]ahpwire.ResourceChange, 0, len(we.order)+1)
	for _, uri := range we.order {
		if kind, ok := we.pending[uri]; ok {
			items = append(items, ahpwire.ResourceChange{URI: uri, Type: kind})
		}
	}
	if we.overflow {
		items = append(items, ahpwire.ResourceChange{URI: we.state.Root, Type: ahpwire.ResourceUpdated})
	}
	we.pending, we.order, we.overflow = map[string]string{}, nil, false
	if len(items) == 0 {
		return
	}
	s.emit(we.uri, &ahpwire.ResourceWatchChanged{Changes: ahpwire.ResourceChangeList{Items: items}}, nil, "")
}

// idleWatch releases we after WatchGrace unless someone subscribes to it
// by then.
func (s *store) idleWatch(we *watchEntry) {
	if we.idle != nil || we.closed {
		return
	}
	h := s.h
	we.idle = time.AfterFunc(s.h.opts.WatchGrace, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		we.idle = nil
		if len(s.subs[we.uri]) == 0 {
			s.closeWatch(we)
		}
	})
}

// watchesIdle starts the grace period of every watch channel among chans
// that has no subscriber left.
func (s *store) watchesIdle(chans ...string) {
	for _, ch := range chans {
		if we := s.ext.watches[ch]; we != nil && len(s.subs[ch]) == 0 {
			s.idleWatch(we)
		}
	}
}

// closeWatch stops a watch and forgets its channel; its watchLoop closes
// the watcher.
func (s *store) closeWatch(we *watchEntry) {
	if we.closed {
		return
	}
	we.closed = true
	if we.flush != nil {
		we.flush.Stop()
	}
	if we.idle != nil {
		we.idle.Stop()
	}
	delete(s.ext.watches, we.uri)
	s.dropChannel(we.uri)
	close(we.stop)
}

// globMatch matches a slash-separated relative path against a glob where
// `**` stands for any number of path segments and the other segments are
// path.Match patterns.
func globMatch(glob, rel string) bool {
	return matchSegs(strings.Split(strings.Trim(glob, "/"), "/"), strings.Split(rel, "/"))
}

func matchSegs(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchSegs(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(g[0], p[0]); err != nil || !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}
