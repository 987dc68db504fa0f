package chat

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// TestNearPartDropsFarPages checks that only the contentRef blocks near
// the window are kept for loading: data: references and other blocks stay,
// and a near key of another message does not keep a page.
func TestNearPartDropsFarPages(t *testing.T) {
	ref := func(i int, uri string) *reducer.Block {
		return &reducer.Block{Index: i, Kind: reducer.KindContentRef, Ref: &ahpwire.ContentRef{URI: uri}}
	}
	m := &reducer.Message{ID: "t1", Blocks: reducer.BlocksOf(
		&reducer.Block{Index: 0, Kind: reducer.KindText},
		ref(1, "ahp-resource:/p1"),
		ref(2, "ahp-resource:/p2"),
		ref(3, "data:text/plain,hi"),
		ref(4, "ahp-resource:/p4"))}
	near := NearKeys(map[string]bool{"t1#2": true, "t0#4": true, "bogus": true})
	part := NearPart(m, near)
	var got []int
	for _, b := range part.Blocks.All() {
		got = append(got, b.Index)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("kept blocks %v, want [0 2 3]", got)
	}
	if part.ID != m.ID || m.Blocks.Len() != 5 {
		t.Fatalf("part %q, original now %d blocks", part.ID, m.Blocks.Len())
	}
	if need := render.NeededResources(part, render.ViewOpts{}); len(need) != 1 || need[0] != "ahp-resource:/p2" {
		t.Fatalf("needed %v, want only the near page", need)
	}
	all := NearKeys(map[string]bool{"t1#1": true, "t1#2": true, "t1#4": true})
	if NearPart(m, all) != m {
		t.Fatal("a message with every page near is not returned as is")
	}
}
