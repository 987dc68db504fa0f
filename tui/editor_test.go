package tui

import (
	"os"
	"testing"

	"github.com/ahptui/ahptui/tui/app"
)

func TestEditorRoundTrip(t *testing.T) {
	m, _ := idleChat(t)
	m = typeText(t, m, "draft")
	_, cmd := m.Update(keyPress("ctrl+o"))
	if cmd == nil {
		t.Fatal("ctrl+o returned no command")
	}
	ready, ok := cmd().(app.EditorReadyMsg)
	if !ok || ready.Err != nil {
		t.Fatalf("prepare editor: %#v", ready)
	}
	b, err := os.ReadFile(ready.Path)
	if err != nil || string(b) != "draft" {
		t.Fatalf("temp file holds %q (%v)", b, err)
	}
	if err := os.WriteFile(ready.Path, []byte("edited\nin the editor\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The editor exits; the file is read back, removed, and becomes the draft.
	m = send(t, m, app.EditorClosedMsg{Path: ready.Path})
	if got := m.chat.Composer.Value(); got != "edited\nin the editor" {
		t.Fatalf("draft after editing: %q", got)
	}
	if _, err := os.Stat(ready.Path); !os.IsNotExist(err) {
		t.Fatal("temp file not removed")
	}
}
