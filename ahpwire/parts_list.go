package ahpwire

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/ahptui/ahptui/internal/pvec"
)

// Parts is the response parts of an active turn: an immutable list whose
// Set and Append return a new list sharing all but O(log n) of the old
// one's storage (package internal/pvec), so reducing one action of a turn
// with n parts costs O(log n), not a copy of n parts, and every earlier
// state keeps its own parts. Parts are found by id through an index kept
// beside them (Indexes), and the parts waiting for the client are counted
// (WaitingForClient). It encodes as a JSON array of parts, [] when empty.
// The zero value is the empty list.
type Parts struct {
	v       pvec.Vec[*ResponsePart] // the parts; never written once shared
	ids     *idIndex                // TargetID → positions (see idIndex)
	waiting int                     // parts for which waits is true
}

// PartsOf returns a list of parts (copied).
func PartsOf(parts ...ResponsePart) Parts {
	return Parts{}.Append(parts...)
}

// Len returns the number of parts.
func (p Parts) Len() int { return p.v.Len() }

// At returns a copy of part i; it panics when i is out of range.
func (p Parts) At(i int) ResponsePart { return *p.v.At(i) }

// Last returns the last part; ok is false when there is none.
func (p Parts) Last() (last ResponsePart, ok bool) {
	if p.v.Len() == 0 {
		return ResponsePart{}, false
	}
	return p.At(p.v.Len() - 1), true
}

// Set returns p with part i replaced by part.
func (p Parts) Set(i int, part ResponsePart) Parts {
	old := p.v.At(i)
	p.v = p.v.Set(i, &part)
	if id := part.TargetID(); id != "" && id != old.TargetID() {
		p.ids = p.ids.insert(id, i)
	}
	p.waiting += waits(&part) - waits(old)
	return p
}

// Append returns p with parts added at the end.
func (p Parts) Append(parts ...ResponsePart) Parts {
	for _, part := range parts {
		if id := part.TargetID(); id != "" {
			p.ids = p.ids.insert(id, p.v.Len())
		}
		p.waiting += waits(&part)
		p.v = p.v.Append(&part)
	}
	return p
}

// All yields copies of the parts in order with their indexes.
func (p Parts) All() iter.Seq2[int, ResponsePart] {
	return func(yield func(int, ResponsePart) bool) {
		for i, part := range p.v.All() {
			if !yield(i, *part) {
				return
			}
		}
	}
}

// Slice returns copies of the parts in a new slice: O(n), for paths that
// run once per turn or per screen, never per action.
func (p Parts) Slice() []ResponsePart {
	out := make([]ResponsePart, 0, p.v.Len())
	for _, part := range p.v.All() {
		out = append(out, *part)
	}
	return out
}

// Indexes yields, ascending, the positions of the parts whose TargetID is
// id, in O(log n) plus one step per part found. The empty id is not
// indexed: for it every part is checked.
func (p Parts) Indexes(id string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if id == "" {
			for i, part := range p.v.All() {
				if part.TargetID() == "" && !yield(i) {
					return
				}
			}
			return
		}
		for _, i := range p.ids.lookup(id) {
			if i < p.v.Len() && p.v.At(i).TargetID() == id && !yield(i) {
				return
			}
		}
	}
}

// Changed yields, ascending, the positions whose part may differ from
// old's: those past old's end and those replaced since (by Set, even with
// an equal part). When p was derived from old it costs O(k·log n) for k
// changes, not O(n); for unrelated lists it compares every position.
func (p Parts) Changed(old Parts) iter.Seq[int] {
	return p.v.Changed(old.v, func(a, b *ResponsePart) bool { return a == b })
}

// WaitingForClient returns how many parts wait for the client: tool calls
// awaiting a confirmation or authentication (ToolCallState.WaitsForClient)
// and input requests without a response.
func (p Parts) WaitingForClient() int { return p.waiting }

// waits returns 1 when part waits for the client, else 0.
func waits(part *ResponsePart) int {
	switch {
	case part.Kind == PartToolCall && part.ToolCall != nil && part.ToolCall.WaitsForClient(),
		part.Kind == PartInputRequest && part.Response == "":
		return 1
	}
	return 0
}

// MarshalJSON writes the parts as an array ([] when empty).
func (p Parts) MarshalJSON() ([]byte, error) {
	return appendParts(nil, p.Slice())
}

// UnmarshalJSON reads an array of parts (null is the empty list).
func (p *Parts) UnmarshalJSON(data []byte) error {
	var parts []ResponsePart
	if err := json.Unmarshal(data, &parts); err != nil {
		return fmt.Errorf("ahpwire: response parts: %w", err)
	}
	*p = PartsOf(parts...)
	return nil
}
