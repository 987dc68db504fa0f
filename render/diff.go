package render

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// splitDiffLines splits text into lines without their newlines.
func splitDiffLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// withFinalNewline ends non-empty text with a newline, so that a missing
// newline at the end of a file is not shown as a change of the last line.
func withFinalNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// unifiedDiff returns the hunks of a unified diff of before and after
// ("@@ -l,n +l,n @@" headers and " ", "-", "+" lines), with ctx lines of
// context. Identical inputs give no lines. The edit script comes from
// go-udiff (Myers with a cost bound, as in x/tools); only the formatting
// of the hunk headers is ours (both counts always shown, as diff -u does
// for the hunks a tool card displays).
func unifiedDiff(before, after string, ctx int) []string {
	before, after = withFinalNewline(before), withFinalNewline(after)
	if before == after {
		return nil
	}
	u, err := udiff.ToUnifiedDiff("a", "b", before, udiff.Lines(before, after), ctx)
	if err != nil {
		// Lines' edits are valid for before by construction; show the whole
		// replacement rather than nothing if that ever changes.
		return replaceAllHunk(before, after)
	}
	var out []string
	for _, h := range u.Hunks {
		out = append(out, hunkLines(h)...)
	}
	return out
}

// hunkLines formats one hunk: its header and its lines without newlines.
func hunkLines(h *udiff.Hunk) []string {
	lines := make([]string, 1, len(h.Lines)+1)
	aN, bN := 0, 0
	for _, l := range h.Lines {
		text := strings.TrimSuffix(l.Content, "\n")
		switch l.Kind {
		case udiff.Delete:
			aN++
			lines = append(lines, "-"+text)
		case udiff.Insert:
			bN++
			lines = append(lines, "+"+text)
		default:
			aN++
			bN++
			lines = append(lines, " "+text)
		}
	}
	lines[0] = fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.FromLine, aN), hunkRange(h.ToLine, bN))
	return lines
}

// hunkRange formats "start,count" (1-based). An empty side (a pure
// insertion or deletion hunk) is "pos,0" with pos the number of lines before
// the change, as diff -u prints it.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// replaceAllHunk is one hunk deleting every line of before and inserting
// every line of after.
func replaceAllHunk(before, after string) []string {
	a, b := splitDiffLines(before), splitDiffLines(after)
	out := []string{fmt.Sprintf("@@ -%s +%s @@", hunkRange(1, len(a)), hunkRange(1, len(b)))}
	for _, l := range a {
		out = append(out, "-"+l)
	}
	for _, l := range b {
		out = append(out, "+"+l)
	}
	return out
}
