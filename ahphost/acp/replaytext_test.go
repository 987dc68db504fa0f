package acp

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestCleanReplayedTurns: Claude Code's command markup leaves the restored
// prompts, its interruption notes cancel their turn, and a turn of markup
// alone is left out.
func TestCleanReplayedTurns(t *testing.T) {
	turn := func(text string, parts ...string) ahpwire.Turn {
		tr := ahpwire.Turn{Message: ahpwire.UserMessage(text), State: ahpwire.TurnComplete}
		for _, p := range parts {
			tr.ResponseParts = append(tr.ResponseParts, ahpwire.MarkdownPart("p", p))
		}
		return tr
	}
	got := cleanReplayedTurns([]ahpwire.Turn{
		turn("<command-name>/model</command-name>\n            <command-message>model</command-message>\n"+
			"            <command-args>default</command-args><local-command-stdout>Set model to x</local-command-stdout>think about it", "42"),
		turn("slow please[Request interrupted by user]"),
		turn("write a poem", "Roses"),
		turn("[Request interrupted by user for tool use]"),
		turn("<command-name>/clear</command-name>"),
		turn("a < b and c </ d", "ok"),
	})
	want := []struct{ text, state string }{
		{"think about it", ahpwire.TurnComplete},
		{"slow please", ahpwire.TurnCancelled},
		{"write a poem", ahpwire.TurnCancelled},
		{"a < b and c </ d", ahpwire.TurnComplete},
	}
	if len(got) != len(want) {
		t.Fatalf("%d turns, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Message.Text != w.text || got[i].State != w.state {
			t.Errorf("turn %d: %q %s, want %q %s", i, got[i].Message.Text, got[i].State, w.text, w.state)
		}
	}
}
