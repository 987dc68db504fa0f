package ahphost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestResourceWatchLeavesOutTheHostsOwnFiles: a durable host whose state
// directory is inside a session's working directory (`serve --state-dir
// .ahptui` in a project, or `ahptui demo` started in the home directory,
// which holds ~/.local/state/ahptui) does not report its own files to a
// watch of that directory: every commit wrote state.db, and the changes
// view said "changed on disk: state.db updated" after every reply. A file
// the user writes beside it is still reported, and so is one the user
// writes in a directory of the same name elsewhere in the tree.
func TestResourceWatchLeavesOutTheHostsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, ".local", "state", "ahptui")
	_, u := startDurable(t, state, Options{Dir: dir, Pace: time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("w", nil, nil)
	chat := w.createSession("ahp-session:/own-files")
	rawChat(t, w, chat)

	var res ahpwire.CreateResourceWatchResult
	must(t, json.Unmarshal(w.call("createResourceWatch", map[string]any{
		"channel": ahpwire.RootURI, "uri": fileURI(dir), "recursive": true,
	}), &res))
	w.call("subscribe", map[string]any{"channel": res.Channel})

	runTurn(t, w, chat, "t1", "/demo slow 20", 1) // commits: state.db is written
	other := filepath.Join(dir, "elsewhere", "ahptui")
	must(t, os.MkdirAll(other, 0o755))
	mine := filepath.Join(dir, "notes.md")
	must(t, os.WriteFile(mine, []byte("mine\n"), 0o644))
	look := filepath.Join(other, "state.db")
	must(t, os.WriteFile(look, []byte("not the host's\n"), 0o644))
	got := changesUntil(t, w, res.Channel, func(m map[string]string) bool {
		return m[fileURI(mine)] != "" && m[fileURI(look)] != ""
	})
	for uri := range got {
		if strings.HasPrefix(uri, fileURI(state)) {
			t.Fatalf("the host's own file was reported as a change in the working directory: %s (all: %v)", uri, got)
		}
	}
}

// TestResourceWatchOfTheStateDirectoryItself: `serve --state-dir .` in a
// project: the watch of the project leaves out the database's files, and
// reports the user's; a directory of Options.Unwatched below the watched
// one (the user state directory: the log, the prompt history) is left out.
func TestResourceWatchOfTheStateDirectoryItself(t *testing.T) {
	dir := t.TempDir()
	userState := filepath.Join(dir, "home-state")
	must(t, os.MkdirAll(userState, 0o755))
	_, u := startDurable(t, dir, Options{Dir: dir, Pace: time.Millisecond, Unwatched: []string{userState}})
	w := dial(t, u, nil)
	w.initialize("w", nil, nil)
	chat := w.createSession("ahp-session:/state-here")
	rawChat(t, w, chat)
	var res ahpwire.CreateResourceWatchResult
	must(t, json.Unmarshal(w.call("createResourceWatch", map[string]any{
		"channel": ahpwire.RootURI, "uri": fileURI(dir), "recursive": true,
	}), &res))
	w.call("subscribe", map[string]any{"channel": res.Channel})

	runTurn(t, w, chat, "t1", "/demo slow 20", 1)
	must(t, os.WriteFile(filepath.Join(userState, "ahptui.log"), []byte("a log line\n"), 0o644))
	mine := filepath.Join(dir, "main.go")
	must(t, os.WriteFile(mine, []byte("package main\n"), 0o644))
	got := changesUntil(t, w, res.Channel, func(m map[string]string) bool { return m[fileURI(mine)] != "" })
	for uri := range got {
		if strings.Contains(uri, "state.db") || strings.Contains(uri, "owner.json") || strings.HasPrefix(uri, fileURI(userState)) {
			t.Fatalf("ahptui's own file reported: %s (all: %v)", uri, got)
		}
	}
}
