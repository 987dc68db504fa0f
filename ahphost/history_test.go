package ahphost

import (
	"encoding/json"
	"testing"
)

func TestSeedAndFetchTurns(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true})
	turns := SyntheticTurns(1000, 5000)
	size := 0
	for _, tr := range turns {
		b, _ := json.Marshal(tr)
		size += len(b)
	}
	if size < 5_000_000 {
		t.Fatalf("synthetic history is only %d bytes", size)
	}
	chat, err := h.SeedSession("ahp-session:/big", turns)
	must(t, err)
	if _, err := h.SeedSession("ahp-session:/big", nil); err == nil {
		t.Fatal("seeding a taken URI succeeded")
	}
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	st := readChat(t, w, chat, 20)
	if len(st.Turns) != 20 || st.Turns[0].ID != "seed-980" || st.Turns[19].ID != "seed-999" || st.TurnsNextCursor == "" {
		t.Fatalf("tail window: %d turns from %s, cursor %q", len(st.Turns), st.Turns[0].ID, st.TurnsNextCursor)
	}
	// Page back through the whole history.
	cursor := st.TurnsNextCursor
	next := 979
	pages := 0
	for cursor != "" {
		id := w.request("fetchTurns", map[string]any{"channel": chat, "cursor": cursor, "limit": 300})
		loaded := w.actionOfType(chat, "chat/turnsLoaded")
		if m := w.response(id); m.Error != nil || string(m.Result) != "{}" {
			t.Fatalf("fetchTurns result %s", m.Result)
		}
		var a struct {
			Turns []struct {
				ID string `json:"id"`
			} `json:"turns"`
			TurnsNextCursor string `json:"turnsNextCursor"`
		}
		must(t, json.Unmarshal(loaded.Action, &a))
		if len(a.Turns) == 0 || len(a.Turns) > 300 {
			t.Fatalf("page of %d turns", len(a.Turns))
		}
		for i := len(a.Turns) - 1; i >= 0; i-- {
			if want := "seed-" + itoa(next); a.Turns[i].ID != want {
				t.Fatalf("turn %s, want %s", a.Turns[i].ID, want)
			}
			next--
		}
		cursor = a.TurnsNextCursor
		pages++
	}
	if next != -1 || pages != 4 {
		t.Fatalf("paged down to %d in %d pages", next, pages)
	}
	// The seeded session is listed with its title and a default chat.
	var list struct {
		Items []struct {
			Resource    string `json:"resource"`
			Title       string `json:"title"`
			DefaultChat string `json:"defaultChat"`
		} `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": "ahp-root://"}), &list))
	if len(list.Items) != 1 || list.Items[0].DefaultChat != chat || list.Items[0].Title == "New session" {
		t.Fatalf("listSessions %+v", list.Items)
	}
	// A full subscribe carries all 1000 turns (~5 MB in one frame).
	if full := readChat(t, w, chat, 0); len(full.Turns) != 1000 || full.TurnsNextCursor != "" {
		t.Fatalf("full snapshot: %d turns", len(full.Turns))
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
