package acp

import (
	"regexp"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// What session/load replays as the user's messages is the agent's own
// transcript, which can hold more than the user typed. Claude Code's
// records a slash command the adapter ran for the session (it sets the
// model with `/model` when a session starts) as <command-name>,
// <command-message>, <command-args> and <local-command-stdout> elements
// run together with the next prompt, and marks an interrupted turn by
// appending "[Request interrupted by user]" to the prompt. Shown as they
// are, a restored chat's first prompt read
// "<command-name>/model</command-name> … think about it".

// commandMarkup matches one of Claude Code's command transcript elements.
var commandMarkup = regexp.MustCompile(`(?s)<(command-name|command-message|command-args|local-command-stdout|local-command-stderr)>.*?</(command-name|command-message|command-args|local-command-stdout|local-command-stderr)>`)

// interruptMarks are the notes Claude Code appends to an interrupted prompt.
var interruptMarks = []string{"[Request interrupted by user for tool use]", "[Request interrupted by user]"}

// cleanReplayedTurns drops that markup from the replayed prompts, marks
// an interrupted turn cancelled (the note comes with its prompt, or alone
// after its answer), and leaves out a turn that held nothing but markup.
func cleanReplayedTurns(turns []ahpwire.Turn) []ahpwire.Turn {
	out := turns[:0]
	for _, t := range turns {
		text := t.Message.Text
		if strings.Contains(text, "</") {
			text = commandMarkup.ReplaceAllString(text, "")
		}
		interrupted := false
		for _, m := range interruptMarks {
			if strings.Contains(text, m) {
				text, interrupted = strings.ReplaceAll(text, m, ""), true
			}
		}
		text = strings.TrimSpace(text)
		if text == "" && len(t.ResponseParts) == 0 {
			if interrupted && len(out) > 0 { // the note of the turn before
				out[len(out)-1].State = ahpwire.TurnCancelled
			}
			continue
		}
		if interrupted {
			t.State = ahpwire.TurnCancelled
		}
		t.Message.Text = text
		out = append(out, t)
	}
	return out
}
