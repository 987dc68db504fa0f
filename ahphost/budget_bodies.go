// What the size budget drops of an archived session beyond its chats'
// turns (issue 28): the bodies its chats' agents made — changesets' diff
// contents, terminals' output, stored contents (chatOwned, dispose.go) and
// the contents of the artifacts only it lists. What names a body stays and
// says why it is empty: a changeset ends in error with no files, a
// terminal shows one line, an artifact reads as a note. So no client
// meets a reference to something that is gone.

package ahphost

import (
	"slices"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// evictedBody says why a body is gone (completing "… were" / "… was").
// It is plain text (a changeset's error, a terminal's output, an
// artifact): no markdown.
const evictedBody = "removed to keep the host's saved state within its size budget " +
	"(the oldest archived sessions go first; ahptui serve --state-budget sets it)"

// evictedType is the errorType of a changeset whose files were dropped.
const evictedType = "evicted"

// evictedTerminalNote replaces a dropped terminal's output: lines short
// enough for an 80-column terminal, which does not wrap what it shows.
const evictedTerminalNote = "[output removed to keep the host's saved state within its size budget:\r\n" +
	" the oldest archived sessions go first; ahptui serve --state-budget sets it]\r\n"

// evictedArtifactNote replaces a dropped artifact's content.
const evictedArtifactNote = "This content was " + evictedBody + ".\n"

// dropSideBodies drops what archived session se's chats made and returns
// about how many stored bytes that freed. Prefixes that also cover a chat
// of another session are left alone (ownsOthers), and so is all of a
// session where a turn runs (its agent may be using them). h.mu is held.
func (s *store) dropSideBodies(se *sessionEntry) int64 {
	for _, cs := range se.state.Chats {
		if ce := s.chats[cs.Resource]; ce != nil && ce.state.ActiveTurn != nil {
			return 0
		}
	}
	others := s.chatsBesides(se)
	var n int64
	for _, cs := range se.state.Chats {
		if ownsOthers(cs.Resource, others) {
			continue
		}
		own := chatOwned(cs.Resource)
		n += s.dropChangesets(own.changesets)
		n += s.dropContents(own.contents)
		n += s.dropTerminals(own.terminals)
	}
	return n + s.dropArtifacts(se)
}

// storedBytes is about what channel uri holds in the database.
func (s *store) storedBytes(uri string) int64 {
	if cp := s.persist.chans[uri]; cp != nil {
		return max(1, cp.snap+cp.tail)
	}
	return 1
}

// underPrefixes returns the keys of m under one of prefixes, sorted.
func underPrefixes[V any](m map[string]V, prefixes []string) []string {
	var out []string
	for uri := range m {
		for _, p := range prefixes {
			if strings.HasPrefix(uri, p) {
				out = append(out, uri)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// dropChangesets empties the changesets under prefixes: no files and no
// operations, status error saying why (changeset/contentChanged, then
// changeset/statusChanged, which every client reduces).
func (s *store) dropChangesets(prefixes []string) int64 {
	var n int64
	for _, uri := range underPrefixes(s.ext.changesets, prefixes) {
		c := s.ext.changesets[uri]
		if e := c.state.Error; e != nil && e.ErrorType == evictedType {
			continue // dropped already
		}
		n += s.storedBytes(uri)
		why := &ahpwire.ErrorInfo{ErrorType: evictedType, Message: "This chat's changes were " + evictedBody + "."}
		s.applyChangeset(uri, &ahpwire.ChangesetContentChanged{Files: []ahpwire.ChangesetFile{}, Operations: []ahpwire.ChangesetOperation{}, Error: why}, nil)
		s.applyChangeset(uri, &ahpwire.ChangesetStatusChanged{Status: ahpwire.ChangesetError, Error: why}, nil)
		c.reviewable = false
		s.persistChanged(uri) // a snapshot replaces the log of the files
	}
	return n
}

// dropContents deletes the stored contents under prefixes (diff sides)
// from memory and from the database.
func (s *store) dropContents(prefixes []string) int64 {
	var n int64
	for _, prefix := range prefixes {
		_, size := s.persist.db.ResourcesUnder(prefix)
		inMemory := s.ext.resources.removePrefix(prefix)
		if size == 0 && !inMemory {
			continue
		}
		n += size
		s.persist.batch.DeleteResources(prefix)
		s.persist.kick()
	}
	return n
}

// dropTerminals replaces the output of the exited terminals under
// prefixes with a line saying why (terminal/cleared, terminal/data). A
// terminal still running is left alone.
func (s *store) dropTerminals(prefixes []string) int64 {
	var n int64
	for _, uri := range underPrefixes(s.ext.terminals, prefixes) {
		t := s.ext.terminals[uri]
		if t.ExitCode == nil || (len(t.Content) == 1 && t.Content[0].Text() == evictedTerminalNote) {
			continue
		}
		n += s.storedBytes(uri)
		s.applyTerminal(uri, &ahpwire.TerminalCleared{}, nil)
		s.applyTerminal(uri, &ahpwire.TerminalData{Data: evictedTerminalNote}, nil)
		s.ext.retained.forget(uri)
		s.persistChanged(uri) // a snapshot replaces the log of the output
	}
	return n
}

// dropArtifacts replaces the stored content of each artifact of se that
// no other session lists with a note saying why (the artifact stays
// listed, and reads as the note).
func (s *store) dropArtifacts(se *sessionEntry) int64 {
	listed := map[string]bool{}
	for _, o := range s.sessions {
		if o != se {
			for _, a := range o.state.Artifacts {
				listed[a.URI] = true
			}
		}
	}
	var n int64
	for _, a := range se.state.Artifacts {
		if a.URI == "" || listed[a.URI] {
			continue
		}
		it, ok := s.ext.resources.get(a.URI)
		if !ok || it.size == int64(len(evictedArtifactNote)) {
			continue // not stored, or dropped already
		}
		n += it.size
		s.putResource(a.URI, "text/markdown", []byte(evictedArtifactNote))
	}
	return n
}
