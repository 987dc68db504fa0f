package demo

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/ahptui/ahptui/ahpwire"
)

// Completion limits.
const (
	// MaxCompletionItems is the most items one completions answer holds.
	MaxCompletionItems = 50
	// maxIndexedFiles bounds the files walked for "@" completions.
	maxIndexedFiles = 5000
	// maxIndexDepth bounds how deep "@" completions look.
	maxIndexDepth = 8
)

// planAnswer is the answer of plan mode: no tools, a plan only.
func planAnswer(prompt, model string) string {
	return fmt.Sprintf("_Plan mode (%s): I describe what I would do and run no tools._\n\n"+
		"1. Read the files relevant to %s.\n2. Propose the change as a diff for your approval.\n"+
		"3. Run the tests and report.\n\nSwitch the session to **Agent** mode to let me run tools.\n",
		model, inlineCode(shortPrompt(prompt, 60)))
}

// Complete answers `completions` for a message being composed: after "@"
// it offers files of the working directory (resource attachments), at the
// start of the message after "/" the demo commands. offset is in UTF-16
// code units; out-of-range offsets give no items.
func (a *Agent) Complete(text string, offset int) []ahpwire.CompletionItem {
	cut, ok := byteOffset(text, offset)
	if !ok {
		return nil
	}
	before := text[:cut]
	if strings.HasPrefix(before, "/") && !strings.ContainsAny(before, "\n") {
		return commandItems(before, offset)
	}
	start := strings.LastIndexAny(before, " \t\n") + 1
	tok := before[start:]
	if !strings.HasPrefix(tok, "@") {
		return nil
	}
	rs := utf16Len(text[:start])
	return a.fileItems(strings.ToLower(tok[1:]), rs, offset)
}

// commandItems offers the demo commands starting with (or containing) typed.
func commandItems(typed string, end int) []ahpwire.CompletionItem {
	q := strings.ToLower(typed)
	var pre, sub []ahpwire.CompletionItem
	for _, c := range Commands() {
		item := ahpwire.CompletionItem{InsertText: c.Text, RangeStart: ahpwire.Ptr(0), RangeEnd: ahpwire.Ptr(end),
			Attachment: ahpwire.MessageAttachment{Type: ahpwire.AttachmentSimple, Label: c.Text, DisplayKind: "command",
				ModelRepresentation: c.Description}}
		switch t := strings.ToLower(c.Text); {
		case strings.HasPrefix(t, q):
			pre = append(pre, item)
		case strings.Contains(t, strings.TrimPrefix(q, "/")):
			sub = append(sub, item)
		}
	}
	return append(pre, sub...)
}

// fileIndexTTL is how long the file list behind "@" completions is reused.
const fileIndexTTL = 3 * time.Second

// fileIndex caches the files of the working directory for completions, so
// that typing does not walk the tree on every request.
type fileIndex struct {
	mu    sync.Mutex
	at    time.Time
	files []string // slash-separated, relative
}

// list returns the cached file list, walking dir when it is stale.
func (x *fileIndex) list(dir string, now time.Time) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.files != nil && now.Sub(x.at) < fileIndexTTL && !now.Before(x.at) {
		return x.files
	}
	files := []string{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil || rel == "." {
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(rel, string(filepath.Separator)) >= maxIndexDepth {
				return filepath.SkipDir
			}
			return nil
		}
		if len(files) >= maxIndexedFiles {
			return filepath.SkipAll
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	x.files, x.at = files, now
	return files
}

// fileItems offers files whose path contains q (prefix matches of the
// base name first), replacing [rs, re) with "@path".
func (a *Agent) fileItems(q string, rs, re int) []ahpwire.CompletionItem {
	if a.opts.Dir == "" {
		return nil
	}
	var first, rest []ahpwire.CompletionItem
	for _, rel := range a.files.list(a.opts.Dir, a.opts.Now()) {
		low := strings.ToLower(rel)
		if q != "" && !strings.Contains(low, q) {
			continue
		}
		abs := filepath.Join(a.opts.Dir, filepath.FromSlash(rel))
		item := ahpwire.CompletionItem{InsertText: "@" + rel, RangeStart: ahpwire.Ptr(rs), RangeEnd: ahpwire.Ptr(re),
			Attachment: ahpwire.MessageAttachment{Type: ahpwire.AttachmentResource, Label: rel, DisplayKind: "document",
				URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}}
		if strings.HasPrefix(strings.ToLower(path.Base(rel)), q) {
			first = append(first, item)
		} else {
			rest = append(rest, item)
		}
	}
	out := append(first, rest...)
	if len(out) > MaxCompletionItems {
		out = out[:MaxCompletionItems]
	}
	return out
}

// byteOffset converts a UTF-16 offset into a byte index of s.
func byteOffset(s string, off int) (int, bool) {
	if off < 0 {
		return 0, false
	}
	units := 0
	for i, r := range s {
		if units >= off {
			return i, units == off
		}
		units += utf16.RuneLen(r)
	}
	return len(s), units == off
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
