package chat

import (
	"strings"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// NearSpans returns the ids of the block spans within the window or one
// window height above or below it: what content loading is worth starting
// for. Only cached (already rendered) items are looked at, and pages not
// laid out yet count by an estimate of their length (nothing is laid out
// here: a long text's groups above the window used to be rendered with
// glamour only to be walked).
func (t *Transcript) NearSpans() map[string]bool {
	out := map[string]bool{}
	if len(t.Items) == 0 || t.Height <= 0 || t.TopItem >= len(t.Items) {
		return out
	}
	// One window height above the top line...
	above := t.Height
	i, s, to := t.TopItem, t.topSec, t.topLine
	for above > 0 {
		r := &t.Items[i].r
		from := max(0, to-above)
		mark(out, r.spans, s, from, to)
		above -= to - from
		if s > 0 {
			s--
		} else if i > 0 {
			i--
			s = t.Items[i].r.nsecs() - 1
		} else {
			break
		}
		to = t.Items[i].r.secLen(s)
	}
	// ...then the window and one height below it.
	left := 2 * t.Height
	i, s = t.TopItem, t.topSec
	for left > 0 && i < len(t.Items) {
		r := &t.Items[i].r
		n := r.secLen(s)
		start := 0
		if i == t.TopItem && s == t.topSec {
			start = min(t.topLine, n)
		}
		end := min(n, start+left)
		mark(out, r.spans, s, start, end)
		left -= end - start
		if s++; s >= r.nsecs() {
			i, s = i+1, 0
		}
	}
	return out
}

// mark adds the spans overlapping lines [from, to) of section sec.
func mark(out map[string]bool, spans []blockSpan, sec, from, to int) {
	for _, s := range spans {
		if before(tpos{0, s.StartSec, s.Start}, tpos{0, sec, to}) && before(tpos{0, sec, from}, tpos{0, s.EndSec, s.End}) {
			out[s.ID] = true
		}
	}
}

// NearKeys returns the block keys of the near span ids (see nearSpans).
func NearKeys(near map[string]bool) map[render.BlockKey]bool {
	out := make(map[render.BlockKey]bool, len(near))
	for id := range near {
		if k, ok := parseSpanID(id); ok {
			out[k] = true
		}
	}
	return out
}

// NearPart returns m without its contentRef blocks that are not near the
// window (a long reply stored as many pages loads only the pages around
// what is shown); m itself when none is dropped. Only the kept blocks are
// looked at further, so the cost after this walk does not grow with the
// number of pages.
func NearPart(m *reducer.Message, near map[render.BlockKey]bool) *reducer.Message {
	nearIdx := map[int]bool{} // the block indexes of m that are near
	for k := range near {
		if k.MessageID == m.ID {
			nearIdx[k.Index] = true
		}
	}
	var kept []*reducer.Block
	dropped := false
	for _, b := range m.Blocks.All() {
		if b.Kind == reducer.KindContentRef && b.Ref != nil && !strings.HasPrefix(b.Ref.URI, "data:") &&
			!nearIdx[b.Index] {
			dropped = true
			continue
		}
		kept = append(kept, b)
	}
	if !dropped {
		return m
	}
	part := *m
	part.Blocks = reducer.BlocksOf(kept...)
	return &part
}
