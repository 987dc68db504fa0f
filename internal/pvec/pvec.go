// Package pvec is a persistent vector: an immutable sequence whose Set and
// Append return a new version that shares all but O(log n) of its storage
// with the old one, so a reducer can keep every earlier state intact
// without copying a growing list on each change. It is a 32-way trie of
// full leaves plus a tail holding the last 1 to 32 items (the layout of
// Clojure's vectors): an append copies at most the tail, a set copies one
// leaf and the path to it, a read walks at most log32(n) nodes.
package pvec

import "iter"

const (
	bits  = 5
	width = 1 << bits
	mask  = width - 1
)

// node is a trie node: an inner node has kids, a leaf has exactly width
// items. Nodes reachable from a Vec are never written.
type node[T any] struct {
	kids  []*node[T]
	items []T
}

// Vec is an immutable sequence of T. The zero value is the empty vector.
// Two Vecs of the same length have the same shape, so reflect.DeepEqual
// compares their items.
type Vec[T any] struct {
	n     int
	shift uint     // the root's level times bits; leaves are level 0
	root  *node[T] // holds items [0, tailOff()); nil when none
	tail  []T      // the last 1..width items (nil when n == 0); never written
}

// Of returns a vector of items (copied).
func Of[T any](items ...T) Vec[T] {
	var v Vec[T]
	if len(items) == 0 {
		return v
	}
	last := (len(items) - 1) &^ mask // the tail starts here
	for off := 0; off < last; off += width {
		v = v.pushLeaf(append([]T(nil), items[off:off+width]...))
		v.n += width
	}
	v.tail = append([]T(nil), items[last:]...)
	v.n += len(v.tail)
	return v
}

// Len returns the number of items.
func (v Vec[T]) Len() int { return v.n }

// tailOff is the index of the tail's first item.
func (v Vec[T]) tailOff() int { return v.n - len(v.tail) }

// At returns item i; it panics when i is out of range, as a slice would.
func (v Vec[T]) At(i int) T {
	if i < 0 || i >= v.n {
		panic("pvec: index out of range")
	}
	if off := v.tailOff(); i >= off {
		return v.tail[i-off]
	}
	return v.leaf(i)[i&mask]
}

// leaf returns the items of the trie leaf holding index i < tailOff().
func (v Vec[T]) leaf(i int) []T {
	nd := v.root
	for level := v.shift; level > 0; level -= bits {
		nd = nd.kids[(i>>level)&mask]
	}
	return nd.items
}

// Append returns v with items added at the end.
func (v Vec[T]) Append(items ...T) Vec[T] {
	for _, it := range items {
		v = v.append1(it)
	}
	return v
}

func (v Vec[T]) append1(it T) Vec[T] {
	if len(v.tail) == width {
		v = v.pushLeaf(v.tail)
		v.tail = nil
	}
	t := make([]T, len(v.tail)+1)
	copy(t, v.tail)
	t[len(v.tail)] = it
	v.tail = t
	v.n++
	return v
}

// pushLeaf returns v with the full leaf items added to the trie at
// tailOff() (v.n is the caller's to update).
func (v Vec[T]) pushLeaf(items []T) Vec[T] {
	leaf := &node[T]{items: items}
	at := v.tailOff()
	switch {
	case v.root == nil:
		v.root, v.shift = leaf, 0
	case at == width<<v.shift: // the trie is full: grow a level
		v.root = &node[T]{kids: []*node[T]{v.root, newPath(v.shift, leaf)}}
		v.shift += bits
	default:
		v.root = pushInto(v.root, v.shift, at, leaf)
	}
	return v
}

// newPath returns leaf under a chain of inner nodes up to level.
func newPath[T any](level uint, leaf *node[T]) *node[T] {
	if level == 0 {
		return leaf
	}
	return &node[T]{kids: []*node[T]{newPath(level-bits, leaf)}}
}

// pushInto returns a copy of inner node nd (at level > 0) with leaf placed
// at index at.
func pushInto[T any](nd *node[T], level uint, at int, leaf *node[T]) *node[T] {
	sub := (at >> level) & mask
	kids := make([]*node[T], max(len(nd.kids), sub+1))
	copy(kids, nd.kids)
	switch {
	case level == bits:
		kids[sub] = leaf
	case sub < len(nd.kids):
		kids[sub] = pushInto(nd.kids[sub], level-bits, at, leaf)
	default:
		kids[sub] = newPath(level-bits, leaf)
	}
	return &node[T]{kids: kids}
}

// Set returns v with item i replaced by it; it panics when i is out of
// range.
func (v Vec[T]) Set(i int, it T) Vec[T] {
	if i < 0 || i >= v.n {
		panic("pvec: index out of range")
	}
	if off := v.tailOff(); i >= off {
		t := append([]T(nil), v.tail...)
		t[i-off] = it
		v.tail = t
		return v
	}
	v.root = setIn(v.root, v.shift, i, it)
	return v
}

func setIn[T any](nd *node[T], level uint, i int, it T) *node[T] {
	if level == 0 {
		items := append([]T(nil), nd.items...)
		items[i&mask] = it
		return &node[T]{items: items}
	}
	kids := append([]*node[T](nil), nd.kids...)
	sub := (i >> level) & mask
	kids[sub] = setIn(nd.kids[sub], level-bits, i, it)
	return &node[T]{kids: kids}
}

// All yields the items in order with their indexes.
func (v Vec[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		off := v.tailOff()
		for base := 0; base < off; base += width {
			for j, it := range v.leaf(base) {
				if !yield(base+j, it) {
					return
				}
			}
		}
		for j, it := range v.tail {
			if !yield(off+j, it) {
				return
			}
		}
	}
}

// Backward yields the items from the last to the first with their indexes.
func (v Vec[T]) Backward() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		off := v.tailOff()
		for j := len(v.tail) - 1; j >= 0; j-- {
			if !yield(off+j, v.tail[j]) {
				return
			}
		}
		for base := off - width; base >= 0; base -= width {
			items := v.leaf(base)
			for j := width - 1; j >= 0; j-- {
				if !yield(base+j, items[j]) {
					return
				}
			}
		}
	}
}

// Slice returns the items in a new slice (O(n): for cold paths).
func (v Vec[T]) Slice() []T {
	out := make([]T, 0, v.n)
	for _, it := range v.All() {
		out = append(out, it)
	}
	return out
}
