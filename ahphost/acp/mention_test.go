package acp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// "@" completes the session directory's files (fuzzy, .gitignore
// respected) for an agent that offers no completions, and the chosen file
// reaches the agent as a resource link.
func TestMentionFiles(t *testing.T) {
	e := newEnv(t, opts{})
	for p, body := range map[string]string{".gitignore": "*.log\n", "README.md": "hi", "docs/readme-old.md": "", "read.log": ""} {
		abs := filepath.Join(e.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, chat := e.newSession(e.c, "mention")
	text := "blocks look at @rea"
	items, err := e.c.c.Completions(e.ctx, chat, text, len(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.InsertText)
	}
	if len(items) != 2 || items[0].InsertText != "@README.md " || items[1].InsertText != "@docs/readme-old.md " ||
		*items[0].RangeStart != len("blocks look at ") || *items[0].RangeEnd != len(text) {
		t.Fatalf("items %q", got)
	}
	if none, _ := e.c.c.Completions(e.ctx, chat, "mail@rea", 8); len(none) != 0 {
		t.Fatalf("an @ inside a word completed: %+v", none)
	}
	msg := ahpwire.UserMessage("blocks look at @README.md")
	msg.Attachments = []ahpwire.MessageAttachment{items[0].Attachment}
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: "2026-11-27T00:00:00.000Z", Message: msg}); err != nil {
		t.Fatal(err)
	}
	want := "text,link:" + fileURI(filepath.Join(e.dir, "README.md"))
	if md := markdown(e.finished(e.c, chat, "t1")); md != want {
		t.Fatalf("the agent got %q, want %q", md, want)
	}
}
