package ahphost

import (
	"encoding/json"
	"testing"
)

// TestFetchTurnsAnsweredAfterItsSegmentedPage: the chat/turnsLoaded page of
// a fetchTurns goes out before its answer, also when the page is segmented
// (the writer lets small messages in between a segmented message's frames,
// but never a response that is not urgent between an action envelope's),
// so a client has the page when the answer arrives.
func TestFetchTurnsAnsweredAfterItsSegmentedPage(t *testing.T) {
	const limit = 16 * kib
	h, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib})
	chat, err := h.SeedSession("ahp-session:/paged", SyntheticTurns(40, 4*kib))
	must(t, err)
	w := chunkingClient(t, u, "pager", limit)
	st := readChat(t, w, chat, 2)
	var snap struct {
		TurnsNextCursor string `json:"turnsNextCursor"`
	}
	raw, _ := json.Marshal(st)
	must(t, json.Unmarshal(raw, &snap))
	cursor := snap.TurnsNextCursor
	for pages := 0; cursor != ""; pages++ {
		if pages > 40 {
			t.Fatal("paging does not end")
		}
		framesBefore := w.frames
		id := w.request("fetchTurns", map[string]any{"channel": chat, "cursor": cursor, "limit": 10})
		var page *struct {
			TurnsNextCursor string            `json:"turnsNextCursor"`
			Turns           []json.RawMessage `json:"turns"`
		}
		for {
			m := decodeWire(t, w.next())
			if m.ID != nil && *m.ID == id && m.Method == "" {
				if m.Error != nil {
					t.Fatalf("fetchTurns: %s", m.Error.Message)
				}
				break
			}
			var e envelope
			if m.Method == "action" && json.Unmarshal(m.Params, &e) == nil && e.Channel == chat && e.typ() == "chat/turnsLoaded" {
				if page != nil {
					t.Fatal("two pages for one fetchTurns")
				}
				must(t, json.Unmarshal(e.Action, &page))
			}
		}
		if page == nil {
			t.Fatalf("fetchTurns for cursor %q answered before its chat/turnsLoaded page", cursor)
		}
		if len(page.Turns) == 0 || w.frames-framesBefore < 3 {
			t.Fatalf("page of %d turns in %d frames: want a segmented page", len(page.Turns), w.frames-framesBefore)
		}
		cursor = page.TurnsNextCursor
	}
}
