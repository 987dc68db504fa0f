package acp

import (
	"net/url"
	"path/filepath"
	"unicode"
	"unicode/utf16"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/filecomplete"
)

// maxMentionItems bounds the "@" completions of one request.
const maxMentionItems = 50

// mentionAt returns the query of an "@" mention ending at offset (UTF-16)
// and where it starts (the "@"): "@" at the start or after white space,
// then no white space up to the cursor.
func mentionAt(text string, offset int) (query string, start int, ok bool) {
	u := utf16.Encode([]rune(text))
	if offset < 1 || offset > len(u) {
		return "", 0, false
	}
	for i := offset - 1; i >= 0; i-- {
		r := rune(u[i])
		if r == '@' {
			if i > 0 && !unicode.IsSpace(rune(u[i-1])) {
				return "", 0, false
			}
			return string(utf16.Decode(u[i+1 : offset])), i, true
		}
		if unicode.IsSpace(r) {
			return "", 0, false
		}
	}
	return "", 0, false
}

// mentionItems offers the session directory's files for an "@" mention
// (ACP agents offer no completions of their own): "@path " replaces the
// mention, and the file goes with the message as a resource (a resource
// link in the prompt).
func (s *session) mentionItems(query string, start, end int) []ahpwire.CompletionItem {
	s.mu.Lock()
	if s.fileIndex == nil {
		s.fileIndex = filecomplete.New(s.dir, nil)
	}
	x := s.fileIndex
	s.mu.Unlock()
	var out []ahpwire.CompletionItem
	for _, rel := range filecomplete.Match(x.Files(), query, maxMentionItems) {
		abs := filepath.Join(s.dir, filepath.FromSlash(rel))
		out = append(out, ahpwire.CompletionItem{
			InsertText: "@" + rel + " ", RangeStart: ahpwire.Ptr(start), RangeEnd: ahpwire.Ptr(end),
			Attachment: ahpwire.MessageAttachment{Type: ahpwire.AttachmentResource, Label: rel, DisplayKind: "document",
				URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()},
		})
	}
	return out
}
