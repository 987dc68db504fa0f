package pvec

import "iter"

// Changed yields, in ascending order, every index i < v.Len() whose item
// may differ from old's: i ≥ old.Len(), or !same(old.At(i), v.At(i)).
// Subtrees v shares with old (v derived from old by Set and Append, or the
// reverse) are skipped unread, so after k changes to a vector of n items
// it costs O(k·log n + 32) instead of O(n).
func (v Vec[T]) Changed(old Vec[T], same func(a, b T) bool) iter.Seq[int] {
	return func(yield func(int) bool) {
		from := 0
		if v.root != nil && old.root != nil && v.shift == old.shift {
			limit := min(v.tailOff(), old.tailOff())
			if !changedIn(old.root, v.root, v.shift, 0, limit, same, yield) {
				return
			}
			from = limit
		}
		for i := from; i < v.n; i++ {
			if i >= old.n || !same(old.At(i), v.At(i)) {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// changedIn yields the indexes in [base, limit) where the subtrees a (old)
// and b (new) at level differ; false when yield asked to stop.
func changedIn[T any](a, b *node[T], level uint, base, limit int, same func(a, b T) bool, yield func(int) bool) bool {
	if a == b {
		return true
	}
	if level == 0 {
		for j, it := range b.items {
			if i := base + j; i < limit && !same(a.items[j], it) && !yield(i) {
				return false
			}
		}
		return true
	}
	for j, bk := range b.kids {
		kb := base + j<<level
		if kb >= limit {
			break
		}
		if j >= len(a.kids) || a.kids[j] == nil { // not in old's trie: every index differs
			for i := kb; i < min(limit, kb+width<<level); i++ {
				if !yield(i) {
					return false
				}
			}
			continue
		}
		if !changedIn(a.kids[j], bk, level-bits, kb, limit, same, yield) {
			return false
		}
	}
	return true
}
