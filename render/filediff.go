package render

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// diffCounts returns the added and removed line counts of the diff of
// before and after (used when the host sent contents without stats).
func diffCounts(before, after string) (added, removed int64) {
	if tooLargeToDiff(before, after) { // a whole replacement, counted without splitting
		return int64(countLines(after)), int64(countLines(before))
	}
	for _, l := range unifiedDiff(Sanitize(before), Sanitize(after), 0) {
		switch {
		case strings.HasPrefix(l, "@@"):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}

// FileDiff renders one file edit on its own (the changes view): the path
// with its +/− counts and the whole unified diff once both contents are in
// v.Resources (or the loading state until then). Long lines wrap under the
// sign column.
func (r *Renderer) FileDiff(e *ahpwire.FileEdit, width int, v ViewOpts) []string {
	if e == nil {
		return nil
	}
	v.DiffLimit = -1
	return r.fileEdit(e, width, v)
}

// EditURIs lists the content URIs a file edit's diff needs.
func EditURIs(e *ahpwire.FileEdit) []string {
	var out []string
	if e == nil {
		return nil
	}
	for _, side := range []*ahpwire.FileEditSide{e.Before, e.After} {
		if side != nil && !isDataURI(side.Content.URI) {
			out = append(out, side.Content.URI)
		}
	}
	return out
}

// DiffStats returns the +/− counts of an edit: the host's, else computed
// from the contents in v.Resources; -1 when unknown.
func DiffStats(e *ahpwire.FileEdit, v ViewOpts) (added, removed int64) {
	if e == nil {
		return -1, -1
	}
	if d := e.Diff; d != nil && d.Added != nil && d.Removed != nil && *d.Added >= 0 && *d.Removed >= 0 {
		return *d.Added, *d.Removed
	}
	_, beforeRef := editSide(e.Before)
	_, afterRef := editSide(e.After)
	before, okB := refText(beforeRef, v)
	after, okA := refText(afterRef, v)
	if !okB || !okA {
		return -1, -1
	}
	return diffCounts(before, after)
}

// countLines counts the lines of s (a last line without a newline too).
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
