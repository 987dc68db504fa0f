package ahphost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// changesUntil reads resourceWatch/changed actions on ch until want holds
// for the accumulated changes (URI → last type), and returns them.
func changesUntil(t *testing.T, w *wsClient, ch string, want func(map[string]string) bool) map[string]string {
	t.Helper()
	got := map[string]string{}
	for !want(got) {
		e := w.actionOfType(ch, ahpwire.ActionResourceWatchChanged)
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		for _, c := range a.(*ahpwire.ResourceWatchChanged).Changes.Items {
			got[c.URI] = c.Type
		}
	}
	return got
}

// TestResourceWatchReportsChanges: a real fsnotify watch of a session's
// working directory over a real WebSocket: files added, written and
// removed (also in a directory made after the watch started) reach the
// subscriber as resourceWatch/changed; excluded paths do not; paths
// outside the session's directories and non-file URIs are refused; the
// watch is released after the grace period once nobody is subscribed.
func TestResourceWatchReportsChanges(t *testing.T) {
	dir := t.TempDir()
	_, u := startHost(t, Options{NoToken: true, Dir: dir, WatchGrace: 200 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("w", nil, nil)
	w.createSession("ahp-session:/watch")
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))

	if code, _ := w.callErr("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": fileURI(t.TempDir())}); code != ahpwire.CodePermissionDenied {
		t.Fatalf("watch outside the working directories: code %d", code)
	}
	if code, _ := w.callErr("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": "https://example.org/"}); code != ahpwire.CodeInvalidParams {
		t.Fatalf("non-file watch: code %d", code)
	}
	if code, _ := w.callErr("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": fileURI(filepath.Join(dir, "missing"))}); code != ahpwire.CodeNotFound {
		t.Fatalf("missing path: code %d", code)
	}

	var res ahpwire.CreateResourceWatchResult
	must(t, json.Unmarshal(w.call("createResourceWatch", map[string]any{
		"channel": ahpwire.RootURI, "uri": fileURI(dir), "recursive": true,
		"excludes": map[string]any{"items": []string{"**/.git/**", "*.tmp"}},
	}), &res))
	var sub struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": res.Channel}), &sub))
	st, err := ahpwire.DecodeResourceWatchState(sub.Snapshot.State)
	must(t, err)
	if st.Root != fileURI(dir) || !st.Recursive {
		t.Fatalf("watch state %+v", st)
	}

	a := filepath.Join(dir, "a.go")
	must(t, os.WriteFile(a, []byte("package a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "x.tmp"), []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref"), 0o644))
	got := changesUntil(t, w, res.Channel, func(m map[string]string) bool { return m[fileURI(a)] != "" })
	if got[fileURI(a)] != ahpwire.ResourceAdded {
		t.Fatalf("a.go reported as %q", got[fileURI(a)])
	}
	sub1 := filepath.Join(dir, "pkg")
	must(t, os.Mkdir(sub1, 0o755))
	changesUntil(t, w, res.Channel, func(m map[string]string) bool { return m[fileURI(sub1)] != "" })
	deep := filepath.Join(sub1, "b.go")
	must(t, os.WriteFile(deep, []byte("package pkg\n"), 0o644))
	must(t, os.Remove(a))
	got = changesUntil(t, w, res.Channel, func(m map[string]string) bool {
		return m[fileURI(deep)] != "" && m[fileURI(a)] == ahpwire.ResourceDeleted
	})
	for uri := range got {
		if uri == fileURI(filepath.Join(dir, "x.tmp")) || uri == fileURI(filepath.Join(dir, ".git", "HEAD")) {
			t.Fatalf("excluded path reported: %s", uri)
		}
	}

	w.notify("unsubscribe", map[string]any{"channel": res.Channel})
	waitUntil(t, "watch released after the grace period", func() bool {
		code, _ := w.callErr("subscribe", map[string]any{"channel": res.Channel})
		if code == 0 {
			w.notify("unsubscribe", map[string]any{"channel": res.Channel})
		}
		return code == ahpwire.CodeNotFound
	})
}

// TestResourceWatchBounds: one connection may hold at most
// MaxResourceWatchesPerConn watches.
func TestResourceWatchBounds(t *testing.T) {
	dir := t.TempDir()
	_, u := startHost(t, Options{NoToken: true, Dir: dir})
	w := dial(t, u, nil)
	w.initialize("w", nil, nil)
	w.createSession("ahp-session:/bounds")
	for i := 0; i < MaxResourceWatchesPerConn; i++ {
		w.call("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": fileURI(dir)})
	}
	if code, _ := w.callErr("createResourceWatch", map[string]any{"channel": ahpwire.RootURI, "uri": fileURI(dir)}); code != ahpwire.CodePermissionDenied {
		t.Fatalf("watch past the bound: code %d", code)
	}
}
