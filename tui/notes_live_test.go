package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// notesOf is the session's annotations as the TUI holds them.
func notesOf(m Model) []ahpwire.Annotation {
	if m.chat == nil {
		return nil
	}
	return m.c.Channels.NotesOf(m.chat.Session)
}

// TestLiveReviewComments (issue 31) against the real host: after
// "/demo edit" the agent's comment shows under its reply; in the
// transcript m writes a comment on the focused turn, M replies to it;
// f9 puts the open comments into the composer, and sending them makes the
// demo agent answer and resolve each — the transcript shows them resolved.
func TestLiveReviewComments(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo edit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the agent's comment", func(m Model) bool { return m.chat.State.Current == nil && len(notesOf(m)) == 1 })
	r.pump("the comment drawn", func(m Model) bool { return strings.Contains(viewText(m), "💬 main.go:11") })
	if v := viewText(r.m); !strings.Contains(v, "agent: I made `step1` validate first") || !strings.Contains(v, "· open") {
		t.Fatalf("the agent's comment is not under the reply:\n%s", v)
	}

	r.m = send(t, r.m, keyPress("tab"))
	r.m = send(t, r.m, tea.KeyPressMsg{Code: 'm', Text: "m"})
	if _, _, focused := r.m.chat.NoteTarget(); len(r.m.overlays) != 0 && !focused {
		t.Fatalf("m without a focused block: overlays %d, notice %q", len(r.m.overlays), r.m.notice)
	}
	for i := 0; i < 4; i++ { // the reply's last block
		if _, _, ok := r.m.chat.NoteTarget(); ok {
			break
		}
		r.m = send(t, r.m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: 'm', Text: "m"})
	if n := len(r.m.overlays); n == 0 {
		t.Fatalf("m opened no comment prompt:\n%s", viewText(r.m))
	}
	r.m = typeText(t, r.m, "Please also log the error")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("my comment", func(m Model) bool { return len(notesOf(m)) == 2 })
	mine := notesOf(r.m)[1]
	if mine.Entries[0].Author() != "user" || mine.Entries[0].Text.Text != "Please also log the error" || mine.Turn() == "" {
		t.Fatalf("my comment: %+v", mine)
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: 'M', Text: "M"})
	r.m = typeText(t, r.m, "with its cause")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("my reply", func(m Model) bool { n := notesOf(m); return len(n) == 2 && len(n[1].Entries) == 2 })
	r.pump("reply drawn", func(m Model) bool { return strings.Contains(viewText(m), "user: with its cause") })

	r.m = send(t, r.m, tea.KeyPressMsg{Code: tea.KeyF9})
	if v := r.m.chat.Composer.Value(); !strings.HasPrefix(v, ahpwire.ReviewPromptHeader) || !strings.Contains(v, "Please also log the error") {
		t.Fatalf("composer after f9: %q", v)
	}
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("comments resolved", func(m Model) bool {
		n := notesOf(m)
		return len(n) == 2 && n[0].Resolved && n[1].Resolved && m.chat.State.Current == nil
	})
	r.pump("resolved drawn", func(m Model) bool { return strings.Contains(viewText(m), "· resolved") })
	if !strings.Contains(viewText(r.m), "addressed, replied and resolved") {
		t.Fatalf("the agent's answer is not on screen:\n%s", viewText(r.m))
	}
}

// TestLiveChangesViewWatchesTheDirectory: the changes view watches the
// session's directory while open: a file written on disk shows in its
// status line; closing it releases the watch.
func TestLiveChangesViewWatchesTheDirectory(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo edit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("edit done", func(m Model) bool { return m.chat.State.Current == nil && len(m.changesets()) > 0 })
	r.m = send(t, r.m, f6())
	r.pump("watching", func(m Model) bool {
		return m.c.Channels.Watch != nil && m.c.Channels.Watch.URI != "" && strings.Contains(viewText(m), "main.go")
	})
	if v := viewText(r.m); !strings.Contains(v, "watching the directory") || !strings.Contains(v, "m comment on the file") {
		t.Fatalf("changes view without the watch line:\n%s", v)
	}
	dir := strings.TrimPrefix(r.m.chat.WorkDirs[0], "file://")
	if err := os.WriteFile(filepath.Join(dir, "edited.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.pump("change seen", func(m Model) bool { return strings.Contains(viewText(m), "changed on disk: 1 (last: edited.txt") })
	// m on the selected file: a comment anchored to it, counted in the list.
	r.m = send(t, r.m, tea.KeyPressMsg{Code: 'm', Text: "m"})
	r.m = typeText(t, r.m, "Wrap long lines")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("file comment", func(m Model) bool { return len(notesOf(m)) == 2 })
	if a := notesOf(r.m)[1]; !strings.HasSuffix(a.Resource, "main.go") || a.Entries[0].Text.Text != "Wrap long lines" {
		t.Fatalf("file comment %+v", a)
	}
	if v := viewText(r.m); !strings.Contains(v, "main.go  +4 −2  💬1") {
		t.Fatalf("the file's comment is not counted:\n%s", v)
	}
	watch := r.m.c.Channels.Watch.URI
	r.m = send(t, r.m, keyPress("esc"))
	if r.m.c.Channels.Watch != nil {
		t.Fatal("the watch outlived the changes view")
	}
	r.pump("unsubscribed", func(m Model) bool {
		for _, s := range r.client.Subscriptions() {
			if s == watch {
				return false
			}
		}
		return true
	})
}
