package tui

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// TestBigCopyIsCappedAndSaysSo: a 3 MB copy puts at most clipboardMax on
// the clipboard and the notice says so and names the export.
func TestBigCopyIsCappedAndSaysSo(t *testing.T) {
	big := strings.Repeat("é", 3<<20/2)
	batch, ok := app.CopyCmd(big, "the chat as markdown", "e")().(tea.BatchMsg)
	if !ok {
		t.Fatal("not a batch")
	}
	var note string
	clip := -1
	for _, c := range batch {
		switch msg := c().(type) {
		case uikit.NoticeMsg:
			note = msg.Text
		default:
			if v := reflect.ValueOf(msg); v.Kind() == reflect.String {
				clip = v.Len()
				if !strings.HasPrefix(big, v.String()) || !strings.HasSuffix(v.String(), "é") {
					t.Fatal("the cut is not a prefix on a rune boundary")
				}
			}
		}
	}
	if clip < 0 || clip > app.ClipboardMax {
		t.Fatalf("clipboard got %d bytes (cap %d)", clip, app.ClipboardMax)
	}
	if !strings.Contains(note, "first 255 KB") && !strings.Contains(note, "first 256 KB") || !strings.Contains(note, "e exports") {
		t.Fatalf("notice %q", note)
	}
	small, _ := app.CopyCmd("hi", "the block", "e")().(tea.BatchMsg)
	for _, c := range small {
		if n, ok := c().(uikit.NoticeMsg); ok && n.Text != "copied the block (2 bytes)" {
			t.Fatalf("small notice %q", n.Text)
		}
	}
}
