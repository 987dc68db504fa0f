// Package filecomplete offers the files of a directory for "@" mentions:
// a bounded walk (files, entries and depth capped; hidden directories,
// .git and node_modules skipped) that respects .gitignore files (the
// directory's, nested ones for their subtrees, and .git/info/exclude), and
// a fuzzy match of a query against the paths (base-name prefix first, then
// substring, then subsequence; shorter paths first within a rank). An
// Index caches one directory's walk for a few seconds so typing does not
// walk the tree on every key.
package filecomplete
