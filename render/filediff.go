package render

import (
	"strings"

	"github.com/ahptui/ahptui/reducer"
)

// diffCounts returns the added and removed line counts of the diff of
// before and after (used when the host sent contents without stats).
func diffCounts(before, after string) (added, removed int64) {
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
func (r *Renderer) FileDiff(e *reducer.FileEdit, width int, v ViewOpts) []string {
	if e == nil {
		return nil
	}
	v.DiffLimit = -1
	return r.fileEdit(e, width, v)
}

// EditURIs lists the content URIs a file edit's diff needs.
func EditURIs(e *reducer.FileEdit) []string {
	var out []string
	if e == nil {
		return nil
	}
	for _, ref := range []*reducer.ContentRef{e.BeforeContent, e.AfterContent} {
		if ref != nil && !isDataURI(ref.URI) {
			out = append(out, ref.URI)
		}
	}
	return out
}

// DiffStats returns the +/− counts of an edit: the host's, else computed
// from the contents in v.Resources; -1 when unknown.
func DiffStats(e *reducer.FileEdit, v ViewOpts) (added, removed int64) {
	if e == nil {
		return -1, -1
	}
	if e.Added >= 0 && e.Removed >= 0 {
		return e.Added, e.Removed
	}
	before, okB := refText(e.BeforeContent, v)
	after, okA := refText(e.AfterContent, v)
	if !okB || !okA {
		return -1, -1
	}
	return diffCounts(before, after)
}
