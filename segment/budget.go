package segment

import (
	"strconv"
	"sync/atomic"
)

// Budget is a byte budget for reassembly buffers shared by many
// Reassemblers, typically every connection of one host (or every connection
// of one client over its lifetime). A Reassembler whose Limits.Budget is set
// draws the capacity of each group buffer from it before allocating and
// returns it when the group completes, fails, times out (Sweep) or is
// dropped (Reset). A segment whose buffer cannot be drawn is a violation
// ([RuleBudgetExceeded]): only the connection that asked for more closes;
// others keep the bytes they already hold.
//
// A Budget is safe for concurrent use.
type Budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

// NewBudget returns a budget of limit bytes (limit ≤ 0 means
// [DefaultBudgetBytes]).
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultBudgetBytes
	}
	return &Budget{limit: limit}
}

// DefaultBudgetBytes is the budget NewBudget uses when given none: room for
// eight messages of DefaultMaxMessageBytes in flight at once.
const DefaultBudgetBytes int64 = 8 * DefaultMaxMessageBytes

// Limit returns the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns the bytes currently drawn by all Reassemblers.
func (b *Budget) Used() int64 { return b.used.Load() }

// Peak returns the largest Used seen so far.
func (b *Budget) Peak() int64 { return b.peak.Load() }

// take draws n bytes; it draws nothing and returns false if that would
// exceed the limit. A nil budget always succeeds.
func (b *Budget) take(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			for p := b.peak.Load(); u+n > p && !b.peak.CompareAndSwap(p, u+n); p = b.peak.Load() {
			}
			return true
		}
	}
}

// give returns n bytes drawn with take.
func (b *Budget) give(n int64) {
	if b != nil && n > 0 {
		b.used.Add(-n)
	}
}

// budgetDetail describes a refused draw for a ViolationError (sizes only).
func (b *Budget) budgetDetail(n int64) string {
	return "need " + strconv.FormatInt(n, 10) + " more bytes, " +
		strconv.FormatInt(b.Used(), 10) + " of " + strconv.FormatInt(b.limit, 10) + " in use"
}
