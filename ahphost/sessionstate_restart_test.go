package ahphost

import (
	"bytes"
	"encoding/json"
	"testing"
)

// rawState subscribes to channel and returns its snapshot state as JSON.
func rawState(t *testing.T, w *wsClient, channel string) json.RawMessage {
	t.Helper()
	var res struct {
		Snapshot struct {
			State json.RawMessage `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": channel}), &res))
	return res.Snapshot.State
}

// TestDurableRestartKeepsSessionState: a session's whole state — its
// working directory, the setting /demo config added, the artifacts /demo
// artifacts registered with their stored documents, its chats' summaries
// and times — is the same after a restart, byte for byte, and so is a
// stored artifact's content.
func TestDurableRestartKeepsSessionState(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	dir := t.TempDir()
	w.call("createSession", map[string]any{"channel": "ahp-session:/whole", "workingDirectories": []string{"file://" + dir}})
	var sub struct {
		DefaultChat string `json:"defaultChat"`
	}
	must(t, json.Unmarshal(rawState(t, w, "ahp-session:/whole"), &sub))
	chat := sub.DefaultChat
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "/demo config", 1)
	runTurn(t, w, chat, "t2", "/demo artifacts", 2)
	before := rawState(t, w, "ahp-session:/whole")
	var st struct {
		WorkingDirectories []string `json:"workingDirectories"`
		Config             struct {
			Values map[string]any `json:"values"`
		} `json:"config"`
		Artifacts []struct {
			URI string `json:"uri"`
		} `json:"artifacts"`
	}
	must(t, json.Unmarshal(before, &st))
	if len(st.Artifacts) < 3 || len(st.Config.Values) == 0 || len(st.WorkingDirectories) != 1 {
		t.Fatalf("the session holds no artifacts or settings to keep: %s", clip(before))
	}
	var doc struct {
		Data string `json:"data"`
	}
	must(t, json.Unmarshal(w.call("resourceRead", map[string]any{"uri": st.Artifacts[0].URI}), &doc))
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, Options{})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	if after := rawState(t, w2, "ahp-session:/whole"); !bytes.Equal(after, before) {
		t.Fatalf("the session's state changed across the restart:\nbefore %s\nafter  %s", clip(before), clip(after))
	}
	var again struct {
		Data string `json:"data"`
	}
	must(t, json.Unmarshal(w2.call("resourceRead", map[string]any{"uri": st.Artifacts[0].URI}), &again))
	if again.Data == "" || again.Data != doc.Data {
		t.Fatalf("the artifact's content after the restart: %q, before %q", again.Data, doc.Data)
	}
}
