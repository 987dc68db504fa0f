package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteServeStateRenameFails: when the state file cannot be put in
// place, writeServeState says so and leaves no temporary file (it would
// hold the token).
func TestWriteServeStateRenameFails(t *testing.T) {
	state := t.TempDir()
	old := lookupEnv
	lookupEnv = func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	t.Cleanup(func() { lookupEnv = old })
	dir := filepath.Join(state, "ahptui")
	// A non-empty directory where the file goes: the rename fails.
	must(t, os.MkdirAll(filepath.Join(dir, serveStateName, "x"), 0o700))
	remove, err := writeServeState(serveState{PID: os.Getpid(), Token: "secret-token"})
	if err == nil {
		remove()
		t.Fatal("writeServeState succeeded although the rename failed")
	}
	entries, err := os.ReadDir(dir)
	must(t, err)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".serve-") {
			t.Fatalf("temporary state file %s left behind", e.Name())
		}
	}
}
