package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// "!CMD" runs CMD in a shell on the host, in the session's directory,
// shown as a terminal in the transcript; the agent gets nothing then, and
// the command with its output goes first in the next prompt (once).
func TestShellMode(t *testing.T) {
	e := newEnv(t, opts{})
	if err := os.WriteFile(filepath.Join(e.dir, "here.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "shell")
	turn := e.run(e.c, chat, "t1", "!ls; echo out-of-shell; exit 3")
	if md := markdown(turn); md != "" {
		t.Fatalf("the agent answered a shell command: %q", md)
	}
	tools := toolCalls(turn.ResponseParts)
	if len(tools) != 1 || tools[0].DisplayName != "!ls; echo out-of-shell; exit 3" || tools[0].Status != ahpwire.ToolCompleted ||
		tools[0].Success == nil || *tools[0].Success {
		t.Fatalf("the shell's tool call: %+v", tools)
	}
	var term bool
	for _, c := range tools[0].Content {
		term = term || c.Type == ahpwire.ContentTerminal
	}
	if !term {
		t.Fatalf("no terminal in %+v", tools[0].Content)
	}
	if turn.State != ahpwire.TurnComplete {
		t.Fatalf("turn %q", turn.State)
	}
	md := markdown(e.run(e.c, chat, "t2", "texts"))
	if !strings.Contains(md, "I ran `ls; echo out-of-shell; exit 3` in the shell (exit 3); its output:\n```\nhere.txt\nout-of-shell\n```") ||
		!strings.HasSuffix(md, " | texts") {
		t.Fatalf("the next prompt: %q", md)
	}
	if md := markdown(e.run(e.c, chat, "t3", "texts")); md != "texts" {
		t.Fatalf("the note went twice: %q", md)
	}
}
