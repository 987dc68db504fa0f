package tui

import (
	"os"
	"testing"
)

func TestEditorRoundTrip(t *testing.T) {
	m, _ := idleChat(t)
	m = typeText(t, m, "draft")
	_, cmd := m.Update(keyPress("ctrl+o"))
	if cmd == nil {
		t.Fatal("ctrl+o returned no command")
	}
	ready, ok := cmd().(editorReadyMsg)
	if !ok || ready.err != nil {
		t.Fatalf("prepare editor: %#v", ready)
	}
	b, err := os.ReadFile(ready.path)
	if err != nil || string(b) != "draft" {
		t.Fatalf("temp file holds %q (%v)", b, err)
	}
	if err := os.WriteFile(ready.path, []byte("edited\nin the editor\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The editor exits; the file is read back, removed, and becomes the draft.
	m = send(t, m, editorClosedMsg{path: ready.path})
	if got := m.chat.comp.Value(); got != "edited\nin the editor" {
		t.Fatalf("draft after editing: %q", got)
	}
	if _, err := os.Stat(ready.path); !os.IsNotExist(err) {
		t.Fatal("temp file not removed")
	}
}
