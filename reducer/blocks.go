package reducer

import (
	"iter"

	"github.com/ahptui/ahptui/internal/pvec"
)

// Blocks is a message's blocks in order: an immutable list whose Set and
// Append return a new list sharing all but O(log n) of the old one's
// storage (package internal/pvec), so one action on a message of n blocks
// costs O(log n), not a copy of n pointers, and every earlier state keeps
// its own blocks. It counts the blocks waiting for the user, so a state
// where none waits answers PendingApprovals and PendingInputs in O(1).
// The zero value is the empty list.
type Blocks struct {
	v       pvec.Vec[*Block]
	waiting int // blocks for which waits is true
}

// BlocksOf returns a list of blocks (the pointers are shared, not the
// blocks copied).
func BlocksOf(bs ...*Block) Blocks {
	n := 0
	for _, b := range bs {
		n += waits(b)
	}
	return Blocks{pvec.Of(bs...), n}
}

// waits returns 1 for a block waiting for the user (see
// State.PendingApprovals and State.PendingInputs), else 0. What it reads
// (kind, tool call, response) is set before a block joins a list.
func waits(b *Block) int {
	if b != nil && (b.Kind == KindToolCall && b.Tool != nil && b.Tool.WaitsForClient() || b.InputOpen()) {
		return 1
	}
	return 0
}

// Len returns the number of blocks.
func (b Blocks) Len() int { return b.v.Len() }

// At returns block i; it panics when i is out of range.
func (b Blocks) At(i int) *Block { return b.v.At(i) }

// Last returns the last block, nil when there is none.
func (b Blocks) Last() *Block {
	if b.v.Len() == 0 {
		return nil
	}
	return b.v.At(b.v.Len() - 1)
}

// Set returns b with block i replaced by blk.
func (b Blocks) Set(i int, blk *Block) Blocks {
	return Blocks{b.v.Set(i, blk), b.waiting + waits(blk) - waits(b.v.At(i))}
}

// Append returns b with bs added at the end.
func (b Blocks) Append(bs ...*Block) Blocks {
	for _, blk := range bs {
		b.waiting += waits(blk)
	}
	return Blocks{b.v.Append(bs...), b.waiting}
}

// All yields the blocks in order with their indexes.
func (b Blocks) All() iter.Seq2[int, *Block] { return b.v.All() }

// Backward yields the blocks from the last to the first with their indexes.
func (b Blocks) Backward() iter.Seq2[int, *Block] { return b.v.Backward() }

// Slice returns the blocks in a new slice: O(n), for paths that run once
// per message or per screen, never per action.
func (b Blocks) Slice() []*Block { return b.v.Slice() }

// Changed yields, ascending, the indexes whose block differs from old's
// (another pointer) or that old does not have; when b was derived from
// old it costs O(k·log n) for k changes instead of O(n).
func (b Blocks) Changed(old Blocks) iter.Seq[int] {
	return b.v.Changed(old.v, func(x, y *Block) bool { return x == y })
}
