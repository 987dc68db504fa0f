package tui

// maxFocusScan bounds how many items a block-focus move may render while
// looking for the next focusable block.
const maxFocusScan = 64

// FocusedSpan returns the focused block, or nil.
func (t *transcript) FocusedSpan() *blockSpan {
	if t.fItem < 0 || t.fItem >= len(t.items) {
		return nil
	}
	return findSpan(t.ensure(t.fItem).spans, t.fBlockID)
}

// FocusedItem returns the index of the item holding the focused block (-1 = none).
func (t *transcript) FocusedItem() int { return t.fItem }

// FocusNext moves block focus forward (dir = +1) or backward (dir = -1). With
// no focused block it starts from the last (or first) visible block.
func (t *transcript) FocusNext(dir int) bool {
	if len(t.items) == 0 {
		return false
	}
	item, idx := t.fItem, -1
	if item >= 0 {
		spans := t.ensure(item).spans
		for i := range spans {
			if spans[i].ID == t.fBlockID {
				idx = i
			}
		}
	}
	if item < 0 || idx < 0 {
		first, last := t.visibleItems()
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
			t.revealFocus()
			return true
		}
		item += dir
		if item < 0 || item >= len(t.items) {
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
func (t *transcript) ClearFocus() { t.setFocusBlock(-1, "") }

// setFocusBlock moves block focus; the renderer marks the focused block, so
// the items losing and gaining it re-render.
func (t *transcript) setFocusBlock(item int, id string) {
	if item == t.fItem && id == t.fBlockID {
		return
	}
	t.invalidate(t.fItem)
	t.fItem, t.fBlockID = item, id
	t.invalidate(item)
	t.layout()
}

// SetPaneFocus records whether the transcript pane has keyboard focus (the
// focused block is only marked then).
func (t *transcript) SetPaneFocus(on bool) {
	if t.focus != on {
		t.focus = on
		t.invalidate(t.fItem)
		t.layout()
	}
}

// revealFocus scrolls so the focused block's first line is visible.
func (t *transcript) revealFocus() {
	sp := t.FocusedSpan()
	if sp == nil {
		return
	}
	if t.follow {
		t.topItem, t.topLine, _ = t.bottomAnchor()
	}
	// Lines between the window top and the block start (may be negative).
	if before(t.fItem, sp.Start, t.topItem, t.topLine) {
		t.follow = false
		t.topItem, t.topLine = t.fItem, sp.Start
		t.layout()
		return
	}
	// Below the window? Count the lines from the top anchor to the block.
	dist := 0
	for i := t.topItem; i < t.fItem; i++ {
		dist += len(t.ensure(i).lines)
	}
	dist += sp.Start - t.topLine
	if dist >= t.height {
		t.ScrollDown(dist - t.height + min(sp.End-sp.Start, t.height/2) + 1)
	}
}

// before reports whether (i1, l1) comes before (i2, l2).
func before(i1, l1, i2, l2 int) bool {
	return i1 < i2 || (i1 == i2 && l1 < l2)
}

// dropHiddenFocus clears block focus when the focused item scrolled out of
// the window, so that [ and ] start again from what is visible.
func (t *transcript) dropHiddenFocus() {
	if t.fItem < 0 {
		return
	}
	first, last := t.visibleItems()
	if t.fItem < first || t.fItem > last {
		t.ClearFocus()
	}
}
