package segment

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestRoundTripEdgeSizes(t *testing.T) {
	const limit = 300
	over := int64(frameFixed + 2*groupIDBytes + 2) // envelope with 1-digit numbers
	perSeg := int((limit - over) / 4 * 3)          // raw bytes in segment 0..9
	want := func(size int) int {
		if size <= limit {
			return 1
		}
		return (size + perSeg - 1) / perSeg
	}
	cases := []struct {
		name string
		size int
		fill string
	}{
		{"min", minMessage, "a"},
		{"limit-1", limit - 1, "a"},
		{"limit", limit, "a"},
		{"limit+1", limit + 1, "a"},
		{"three exact", 3 * perSeg, "a"},
		{"three exact+1", 3*perSeg + 1, "a"},
		{"three exact-1", 3*perSeg - 1, "a"},
		{"nine exact", 9 * perSeg, "a"},
		{"multibyte 2", 3*perSeg + 7, "é"},
		{"multibyte 3", 4*perSeg + 1, "日本語"},
		{"multibyte 4", 6 * perSeg, "😀"},
	}
	sp := NewSplitter(nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := makeMessage(t, tc.size, tc.fill)
			g, err := sp.SplitGroup(msg, capFor(limit), 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { sp.Done(g.ID) })
			if len(g.Frames) != want(tc.size) {
				t.Fatalf("frames = %d, want %d", len(g.Frames), want(tc.size))
			}
			if len(g.Frames) == 1 {
				if !bytes.Equal(g.Frames[0], msg) || g.ID != "" {
					t.Fatal("single frame is not the message itself")
				}
			}
			for i, f := range g.Frames {
				if len(f) > limit {
					t.Fatalf("frame %d has %d bytes > limit %d", i, len(f), limit)
				}
				if len(g.Frames) > 1 && i < len(g.Frames)-1 && len(f) < limit-3 {
					t.Fatalf("frame %d has %d bytes: not filled to the limit %d", i, len(f), limit)
				}
				if len(g.Frames) > 1 && !json.Valid(f) {
					t.Fatalf("frame %d is not valid JSON", i)
				}
			}
			if tc.fill != "a" {
				// At least one segment boundary must cut a multi-byte character.
				cut := false
				for b := perSeg; b < len(msg); b += perSeg {
					cut = cut || msg[b]&0xC0 == 0x80
				}
				if !cut {
					t.Fatal("no segment boundary inside a multi-byte character")
				}
			}
			r := NewReassembler(capFor(limit).Limits(), nil)
			got := feedAll(t, r, g.Frames)
			if !bytes.Equal(got, msg) {
				t.Fatalf("round trip mismatch: got %d bytes, want %d", len(got), len(msg))
			}
			if r.Pending() != 0 {
				t.Fatalf("pending = %d after completion", r.Pending())
			}
		})
	}
	if sp.InFlight() != 0 {
		t.Fatalf("in flight = %d after Done", sp.InFlight())
	}
}
