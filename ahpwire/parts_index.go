package ahpwire

import "slices"

// idIndex is a persistent AVL tree from a part's TargetID to the positions
// in a Parts that hold (or held) a part with that id, ascending. It only
// grows: a position whose part was replaced by one with another id stays
// listed, so a reader checks the part (Parts.Indexes does). Nodes reachable
// from a Parts are never written; an insert copies the path it changes.
type idIndex struct {
	id     string
	at     []int // ascending; never written once shared
	height int8
	left   *idIndex
	right  *idIndex
}

// lookup returns the positions listed for id.
func (t *idIndex) lookup(id string) []int {
	for t != nil {
		switch {
		case id < t.id:
			t = t.left
		case id > t.id:
			t = t.right
		default:
			return t.at
		}
	}
	return nil
}

// insert returns t with position i listed for id.
func (t *idIndex) insert(id string, i int) *idIndex {
	if t == nil {
		return &idIndex{id: id, at: []int{i}, height: 1}
	}
	n := *t
	switch {
	case id < t.id:
		n.left = t.left.insert(id, i)
	case id > t.id:
		n.right = t.right.insert(id, i)
	default:
		k, found := slices.BinarySearch(t.at, i)
		if found {
			return t
		}
		n.at = slices.Insert(slices.Clip(t.at), k, i)
		return &n
	}
	return n.balance()
}

func (t *idIndex) h() int8 {
	if t == nil {
		return 0
	}
	return t.height
}

// fix sets n's height from its children's.
func (t *idIndex) fix() *idIndex {
	t.height = max(t.left.h(), t.right.h()) + 1
	return t
}

// balance returns fresh node n rebalanced; the nodes it rotates are copied.
func (t *idIndex) balance() *idIndex {
	t.fix()
	switch bf := t.left.h() - t.right.h(); {
	case bf > 1:
		if t.left.left.h() < t.left.right.h() {
			t.left = t.left.rotateLeft()
		}
		return t.rotateRight()
	case bf < -1:
		if t.right.right.h() < t.right.left.h() {
			t.right = t.right.rotateRight()
		}
		return t.rotateLeft()
	}
	return t
}

// rotateRight returns a copy of t with its left child lifted.
func (t *idIndex) rotateRight() *idIndex {
	top, n := *t.left, *t
	n.left = top.right
	top.right = n.fix()
	return top.fix()
}

// rotateLeft returns a copy of t with its right child lifted.
func (t *idIndex) rotateLeft() *idIndex {
	top, n := *t.right, *t
	n.right = top.left
	top.left = n.fix()
	return top.fix()
}
