package acp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// An agent that edits files with its own tools (Claude Code's Edit and
// Write) writes them itself: only fs/write_text_file passes through the
// bridge. Such a tool call reports what it changes as diff content, so
// the bridge reads each file it names before the call runs and again once
// it completed, and a file that changed joins the session's changeset as
// fs/write_text_file's do. Claude Code also reports the whole file as it
// was (its PostToolUse response's originalFile), which is taken over the
// snapshot: a call that runs without asking can overtake the read.

// fileBefore is a file's content before a tool call changed it.
type fileBefore struct {
	text    string
	existed bool
}

// trackEdits follows the files tool call id edits (the paths of its diff
// content): the first time it names a path, the file's content now; when
// it has completed, the changed files go into the session's changeset.
// It runs after the update was mapped, outside tm.mu (file I/O).
func (tm *turnMap) trackEdits(id string, meta map[string]any) {
	orig, origOK := originalFile(meta)
	tm.mu.Lock()
	tc := tm.tools[id]
	if tc == nil || tc.recorded || (len(tc.edited) == 0 && !origOK) {
		tm.mu.Unlock()
		return
	}
	var snap []string
	for _, p := range tc.edited {
		if _, ok := tc.before[p]; !ok {
			snap = append(snap, p)
		}
	}
	tm.mu.Unlock()

	got := map[string]fileBefore{}
	for _, p := range snap {
		if b, ok := tm.readFile(p); ok {
			got[p] = b
		}
	}
	tm.mu.Lock()
	if tc.before == nil {
		tc.before = map[string]fileBefore{}
	}
	for p, b := range got {
		if _, ok := tc.before[p]; !ok {
			tc.before[p] = b
		}
	}
	if origOK {
		tc.before[orig.path] = orig.before
		if !slices.Contains(tc.edited, orig.path) {
			tc.edited = append(tc.edited, orig.path)
		}
	}
	finished := tc.done && tc.succeeded && !tc.recorded
	if finished {
		tc.recorded = true
	}
	paths := append([]string(nil), tc.edited...)
	before := make(map[string]fileBefore, len(tc.before))
	for p, b := range tc.before {
		before[p] = b
	}
	tm.mu.Unlock()
	if !finished {
		return
	}

	changed := false
	for _, p := range paths {
		b, ok := before[p]
		if !ok {
			continue
		}
		after, ok := tm.readFile(p)
		if !ok || (after.existed == b.existed && after.text == b.text) {
			continue
		}
		real, err := confine(tm.s.dir, p)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(tm.s.dir, real)
		if err != nil {
			continue
		}
		tm.s.recordChange(rel, b, after.text)
		changed = true
	}
	if changed {
		tm.publishChanges()
	}
}

// readFile reads a file inside the session's directory (bounded); a file
// that does not exist reads as not existing. ok is false when the path is
// outside the directory or cannot be read.
func (tm *turnMap) readFile(path string) (fileBefore, bool) {
	real, err := confine(tm.s.dir, path)
	if err != nil {
		return fileBefore{}, false
	}
	b, err := readBeneath(tm.s.dir, relOf(tm.s.dir, real), tm.b.cfg.MaxFileBytes, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return fileBefore{}, true
	}
	if err != nil {
		return fileBefore{}, false
	}
	return fileBefore{text: string(b), existed: true}, true
}

// overwritten is the content a diff without old text replaces: ACP says
// that diff creates the file, but Claude Code's Write shows every write
// so, also one over an existing file. The file as it is now (kept as the
// call's snapshot) is the diff's old side; nil when it does not exist,
// is outside the session's directory, or already holds the new text (the
// write ran before the update arrived). tm.mu is held.
func (tm *turnMap) overwritten(tc *toolMap, path, newText string) *string {
	if !filepath.IsAbs(path) {
		return nil
	}
	path = filepath.Clean(path)
	b, fresh, ok := tm.snapshot(tc, path) // kept even when the write ran already: trackEdits would read the same
	if !ok || !b.existed || (fresh && b.text == newText) {
		return nil
	}
	return &b.text
}

// snapshot is the call's copy of the file at path as it was before the
// call ran: the one taken already, or (fresh) read now and kept. tm.mu is
// held.
func (tm *turnMap) snapshot(tc *toolMap, path string) (b fileBefore, fresh, ok bool) {
	if b, ok := tc.before[path]; ok {
		return b, false, true
	}
	if b, ok = tm.readFile(path); !ok {
		return fileBefore{}, false, false
	}
	if tc.before == nil {
		tc.before = map[string]fileBefore{}
	}
	tc.before[path] = b
	return b, true, true
}

// inFile widens an edit's diff from the snippets the agent replaces to
// the whole file, so that the diff shows the file's own line numbers and
// context (Claude Code's Edit reports only old_string and new_string: the
// approval prompt showed "@@ -1,1 +1,1" for a change on line 40). It
// applies when the file, as the call's snapshot holds it, has old exactly
// once; otherwise (a new file, a replace-all, the edit already made) the
// snippets stay. tm.mu is held.
func (tm *turnMap) inFile(tc *toolMap, path, old, new string) (before, after string, ok bool) {
	if old == "" || old == new || !filepath.IsAbs(path) {
		return "", "", false
	}
	b, _, readable := tm.snapshot(tc, filepath.Clean(path))
	if !readable || !b.existed || b.text == old || strings.Count(b.text, old) != 1 {
		return "", "", false
	}
	return b.text, strings.Replace(b.text, old, new, 1), true
}

// original is the file a Claude Code tool response names, as it was.
type original struct {
	path   string
	before fileBefore
}

// originalFile reads _meta.claudeCode.toolResponse's filePath and
// originalFile (null: the file was created).
func originalFile(meta map[string]any) (original, bool) {
	cc, _ := meta["claudeCode"].(map[string]any)
	resp, _ := cc["toolResponse"].(map[string]any)
	path, _ := resp["filePath"].(string)
	raw, has := resp["originalFile"]
	if path == "" || !has || !filepath.IsAbs(path) {
		return original{}, false
	}
	switch v := raw.(type) {
	case string:
		return original{path: filepath.Clean(path), before: fileBefore{text: v, existed: true}}, true
	case nil:
		return original{path: filepath.Clean(path)}, true
	}
	return original{}, false
}

// notePaths remembers the files a tool call's diff content names.
func (tc *toolMap) notePaths(content []sdk.ToolCallContent) {
	for _, c := range content {
		if c.Diff == nil || !filepath.IsAbs(c.Diff.Path) {
			continue
		}
		if p := filepath.Clean(c.Diff.Path); !slices.Contains(tc.edited, p) {
			tc.edited = append(tc.edited, p)
		}
	}
}
