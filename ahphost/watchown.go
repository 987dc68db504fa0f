package ahphost

import (
	"path/filepath"
	"strings"

	"github.com/ahptui/ahptui/ahphost/durable"
)

// A resource watch of a session's working directory leaves out ahptui's
// own files in it: the host's state directory (its database is written at
// every commit, so the changes view said "state.db updated" after every
// reply) and the Options.Unwatched directories (the user state directory
// of `ahptui demo` started in the home directory: log, prompt history).
// Such a directory is left out when it is below the watched one. A watch
// of the state directory itself (`serve --state-dir .` in a project)
// leaves out only the database's files; a watch of a directory inside one
// of them reports everything.

// ownDirs returns the directories below root the watch leaves out, as
// paths under root (the spelling its events have), and root when it is
// the host's state directory ("" if not).
func (s *store) ownDirs(root string) (below []string, stateDir string) {
	o := s.h.opts
	for i, d := range append([]string{o.StateDir}, o.Unwatched...) {
		if d == "" {
			continue
		}
		rel, ok := relPath(root, d)
		switch {
		case !ok, rel == "..", strings.HasPrefix(rel, ".."+string(filepath.Separator)):
			// not below root: the watch cannot see it, or is inside it
		case rel == ".":
			if i == 0 {
				stateDir = root
			}
		default:
			below = append(below, filepath.Join(root, rel))
		}
	}
	return below, stateDir
}

// relPath is target relative to base, both made absolute and resolved
// through symbolic links where they exist (the watch's root is the
// session's spelling of its directory, the state directory the
// command line's).
func relPath(base, target string) (string, bool) {
	b, err1 := resolved(base)
	t, err2 := resolved(target)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(b, t)
	return rel, err == nil
}

// resolved is path made absolute and, when it exists, with its symbolic
// links resolved.
func resolved(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	return abs, nil
}

// ownFile reports whether path is one of ahptui's own files the watch
// leaves out (ownDirs).
func (we *watchEntry) ownFile(path string) bool {
	for _, d := range we.ownBelow {
		if beneath(path, d) {
			return true
		}
	}
	if we.stateDir != "" && filepath.Dir(path) == we.stateDir {
		base := filepath.Base(path)
		return strings.HasPrefix(base, durable.FileName) || strings.Contains(base, durable.OwnerFileName)
	}
	return false
}
