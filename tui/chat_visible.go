package tui

import (
	"strings"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// nearSpans returns the ids of the block spans within the window or one
// window height above or below it: what content loading is worth starting
// for. Only cached (already laid out) items are looked at.
func (t *transcript) nearSpans() map[string]bool {
	out := map[string]bool{}
	if len(t.items) == 0 || t.height <= 0 {
		return out
	}
	if t.topItem >= len(t.items) {
		return out
	}
	// One window height above the top line...
	above := t.height
	from := max(0, t.topLine-above)
	mark(out, t.items[t.topItem].r.spans, from, t.topLine)
	above -= t.topLine - from
	for i := t.topItem - 1; i >= 0 && above > 0; i-- {
		n := len(t.items[i].r.lines)
		from := max(0, n-above)
		mark(out, t.items[i].r.spans, from, n)
		above -= n - from
	}
	// ...then the window and one height below it.
	left := 2 * t.height
	for i := t.topItem; i < len(t.items) && left > 0; i++ {
		start := 0
		if i == t.topItem {
			start = t.topLine
		}
		end := min(len(t.items[i].r.lines), start+left)
		mark(out, t.items[i].r.spans, start, end)
		left -= end - start
	}
	return out
}

// mark adds the spans overlapping lines [from, to).
func mark(out map[string]bool, spans []blockSpan, from, to int) {
	for _, s := range spans {
		if s.Start < to && s.End > from {
			out[s.ID] = true
		}
	}
}

// farRefs returns the content-reference URIs of m's contentRef blocks that
// are not near the window (a long reply stored as many pages loads only
// the pages around what is shown).
func farRefs(m *reducer.Message, near map[string]bool) map[string]bool {
	far := map[string]bool{}
	for _, b := range m.Blocks {
		if b.Kind == reducer.KindContentRef && b.Ref != nil && !strings.HasPrefix(b.Ref.URI, "data:") &&
			!near[spanID(render.KeyOf(m, b))] {
			far[b.Ref.URI] = true
		}
	}
	return far
}
