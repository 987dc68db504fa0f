package chat

// maxFocusScan bounds how many items a block-focus move may render while
// looking for the next focusable block.
const maxFocusScan = 64

// FocusedSpan returns the focused block, or nil.
func (t *Transcript) FocusedSpan() *blockSpan {
	if t.fItem < 0 || t.fItem >= len(t.Items) {
		return nil
	}
	return findSpan(t.ensure(t.fItem).spans, t.FocusBlockID)
}

// FocusedItem returns the index of the item holding the focused block (-1 = none).
func (t *Transcript) FocusedItem() int { return t.fItem }

// FocusNext moves block focus forward (dir = +1) or backward (dir = -1). With
// no focused block it starts from the last (or first) visible block.
func (t *Transcript) FocusNext(dir int) bool {
	if len(t.Items) == 0 {
		return false
	}
	item, idx := t.fItem, -1
	if item >= 0 {
		spans := t.ensure(item).spans
		for i := range spans {
			if spans[i].ID == t.FocusBlockID {
				idx = i
			}
		}
	}
	if item < 0 || idx < 0 {
		first, last := t.VisibleItems()
		if dir < 0 {
			item, idx = last, len(t.ensure(last).spans)
		} else {
			item, idx = first, -1
		}
	}
	for scanned := 0; scanned < maxFocusScan; scanned++ {
		spans := t.ensure(item).spans
		next := idx + dir
		if next >= 0 && next < len(spans) {
			t.setFocusBlock(item, spans[next].ID)
			t.RevealFocus()
			return true
		}
		item += dir
		if item < 0 || item >= len(t.Items) {
			return false
		}
		if dir > 0 {
			idx = -1
		} else {
			idx = len(t.ensure(item).spans)
		}
	}
	return false
}

// ClearFocus removes block focus.
func (t *Transcript) ClearFocus() { t.setFocusBlock(-1, "") }

// setFocusBlock moves block focus; the renderer marks the focused block, so
// the items losing and gaining it re-render.
func (t *Transcript) setFocusBlock(item int, id string) {
	if item == t.fItem && id == t.FocusBlockID {
		return
	}
	t.Invalidate(t.fItem)
	t.fItem, t.FocusBlockID = item, id
	t.Invalidate(item)
	t.Layout()
}

// SetPaneFocus records whether the transcript pane has keyboard focus (the
// focused block is only marked then).
func (t *Transcript) SetPaneFocus(on bool) {
	if t.focus != on {
		t.focus = on
		t.Invalidate(t.fItem)
		t.Layout()
	}
}

// RevealFocus scrolls so the focused block's first line is visible.
func (t *Transcript) RevealFocus() {
	sp := t.FocusedSpan()
	if sp == nil {
		return
	}
	if t.follow {
		p, _ := t.bottomAnchor()
		t.setTop(p)
	}
	start := tpos{t.fItem, sp.StartSec, sp.Start}
	if before(start, t.top()) {
		t.follow = false
		t.setTop(start)
		t.Layout()
		return
	}
	// Below the window? Count the lines from the top anchor to the block
	// (no further than the window).
	if t.distance(t.top(), start, t.Height) < t.Height {
		return
	}
	// Show it in the lower part: the block's start at height-k-1 rows
	// from the top, k its height up to half the window.
	k := min(t.distance(start, tpos{t.fItem, sp.EndSec, sp.End}, t.Height/2), t.Height/2)
	t.follow = false
	t.setTop(start)
	t.up(t.Height - k - 1)
	t.Layout()
}

// distance counts the lines from a to b (a before b), stopping at limit.
func (t *Transcript) distance(a, b tpos, limit int) int {
	d := 0
	i, s := a.item, a.sec
	for d < limit {
		n := len(t.SecLines(i, s))
		from, to := 0, n
		if i == a.item && s == a.sec {
			from = min(a.line, n)
		}
		if i == b.item && s == b.sec {
			return d + max(0, min(b.line, n)-from)
		}
		d += to - from
		var ok bool
		if i, s, ok = t.nextSec(i, s); !ok || i > b.item || (i == b.item && s > b.sec) {
			break
		}
	}
	return min(d, limit)
}

// before reports whether position a comes before b.
func before(a, b tpos) bool {
	if a.item != b.item {
		return a.item < b.item
	}
	if a.sec != b.sec {
		return a.sec < b.sec
	}
	return a.line < b.line
}

// dropHiddenFocus clears block focus when the focused item scrolled out of
// the window, so that [ and ] start again from what is visible.
func (t *Transcript) dropHiddenFocus() {
	if t.fItem < 0 {
		return
	}
	first, last := t.VisibleItems()
	if t.fItem < first || t.fItem > last {
		t.ClearFocus()
	}
}
