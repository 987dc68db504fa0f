package acp

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// The session's changeset ("Session changes") lists every file the agent
// changed in the session, each from what it was before the first change
// to what it holds now. The bridge keeps that record (session.files) and
// replaces the changeset with it at each change. A host restart loses the
// record, not the changeset (the host's database keeps it): the first
// turn after it starts the record again from the changeset (seedChanges),
// so the files changed before stay listed, with their first before and
// their reviewed marks, when the agent changes others.

// recordChange notes that the file at rel (relative to the session's
// directory) now holds after; the first change of a file keeps what it
// was before.
func (s *session) recordChange(rel string, before fileBefore, after string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[rel]
	if f == nil {
		f = &changedFile{path: rel, before: before.text, existed: before.existed}
		s.files[rel] = f
	}
	f.after = after
	f.changed = true
}

// seedChanges starts the session's record of changes from the chat's
// changeset as the host has it, at a turn's start until it found one or
// published its own (after a host restart, the changeset is all that is
// left of the record).
func (tm *turnMap) seedChanges() {
	s := tm.s
	s.mu.Lock()
	seeded := s.seeded
	s.mu.Unlock()
	r, ok := tm.t.Channels.(agent.ChannelReader)
	if seeded || !ok {
		return
	}
	st, ok := r.ChangesetState(tm.changesetURI())
	if !ok {
		return // none yet (or the turn is over): the next turn looks again
	}
	s.mu.Lock()
	s.seeded = true
	s.mu.Unlock()
	prefix := tm.contentPrefix() + "changes/"
	for _, f := range st.Files {
		if f.Edit.After == nil || !strings.HasPrefix(f.Edit.After.Content.URI, prefix) || !strings.HasSuffix(f.Edit.After.Content.URI, "/after") {
			continue // not one of the bridge's
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(f.Edit.After.Content.URI, prefix), "/after")
		after, ok := r.ReadResource(f.Edit.After.Content.URI)
		if !ok {
			continue
		}
		cf := &changedFile{path: rel, after: string(after)}
		if f.Edit.Before != nil {
			before, ok := r.ReadResource(f.Edit.Before.Content.URI)
			if !ok {
				continue
			}
			cf.before, cf.existed = string(before), true
		}
		s.mu.Lock()
		if s.files[rel] == nil {
			s.files[rel] = cf
		}
		s.mu.Unlock()
	}
}

// contentPrefix is where the chat's contents are stored (fileEdit).
func (tm *turnMap) contentPrefix() string {
	return "ahp-content:/acp/" + strings.TrimPrefix(strings.TrimPrefix(tm.t.Chat, ahpwire.ChatScheme), "/") + "/"
}

// changesetURI is the chat's "Session changes" changeset.
func (tm *turnMap) changesetURI() string {
	return ahpwire.ChangesetScheme + "/" + strings.TrimPrefix(strings.TrimPrefix(tm.t.Chat, ahpwire.ChatScheme), "/") + "/session"
}

// publishChanges replaces the session changeset with every file written
// so far and announces it in the chat once. A file that did not change
// since the changeset last listed it keeps its reviewed mark.
func (tm *turnMap) publishChanges() {
	ch := tm.t.Channels
	if ch == nil {
		return
	}
	uri := tm.changesetURI()
	reviewed := map[string]bool{}
	if r, ok := ch.(agent.ChannelReader); ok {
		if st, ok := r.ChangesetState(uri); ok {
			for _, f := range st.Files {
				reviewed[f.ID] = f.IsReviewed()
			}
		}
	}
	s := tm.s
	s.mu.Lock()
	s.seeded = true // the record is the changeset from now on
	files := make([]changedFile, 0, len(s.files))
	for _, f := range s.files {
		files = append(files, *f)
		f.changed = false
	}
	s.mu.Unlock()
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	var cs []ahpwire.ChangesetFile
	for _, f := range files {
		var before *string
		if f.existed {
			b := f.before
			before = &b
		}
		fe := tm.fileEdit("changes/"+f.path, filepath.Join(s.dir, f.path), before, f.after)
		cf := ahpwire.ChangesetFile{ID: fe.Path(), Edit: fe}
		if !f.changed && reviewed[cf.ID] {
			cf.Reviewed = ahpwire.Ptr(true)
		}
		cs = append(cs, cf)
	}
	ch.Changeset(uri, ahpwire.ChangesetState{Status: ahpwire.ChangesetReady, Files: cs}, true)
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if !tm.changes {
		tm.changes = true
		tm.emitLocked(&ahpwire.ChatChangesetsChanged{Changesets: []ahpwire.Changeset{{
			Label: "Session changes", URITemplate: uri, ChangeKind: "session",
			Capabilities: &ahpwire.ChangesetCapabilities{Review: &struct{}{}},
		}}})
	}
}
