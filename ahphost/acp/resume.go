// Resuming a turn (chat/turnResume after a resumable error, or a reply a
// host restart or crash cut short): ACP has no request to continue a
// reply, so the bridge re-binds the agent's session (session/resume, else
// session/load; ensureACP) and prompts it to continue where it stopped,
// quoting the end of what the user saw. The original message is not sent
// again (the agent would answer it afresh, repeating the reply). The
// continuation streams into the same AHP turn, after its parts so far. A
// turn that had shown nothing sends its message again instead.

package acp

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// continueWord starts the prompt of a resumed turn.
const continueWord = "Continue"

// continuePrompt is what a resumed turn sends the agent: a request to
// continue its interrupted reply, with the end of what it showed.
func continuePrompt(t agent.Turn) string {
	var b strings.Builder
	b.WriteString(continueWord + " your previous reply from exactly where it stopped, without repeating what it already said. " +
		"It was interrupted (the host running this session stopped, or the reply failed) before it finished.")
	if tail := strings.TrimSpace(t.ReplyTail); tail != "" {
		b.WriteString(" It ended with the text between « and »:\n\n«" + tail + "»")
	} else {
		b.WriteString(" It had shown no text yet.")
	}
	b.WriteString("\n\nIf a tool call was under way, check what it did before doing it again.")
	return b.String()
}

// hasReply reports whether a resumed turn had shown anything before the
// error that stopped it: with nothing, the agent may never have had the
// message (the host stopped before sending it), which is sent again.
func hasReply(parts []ahpwire.ResponsePart) bool {
	for _, p := range parts {
		if p.Kind != ahpwire.PartError {
			return true
		}
	}
	return false
}

// resumeBase makes a resumed turn's new part and plan ids differ from the
// ones its parts so far hold (partID numbers from tm.partBase).
func (tm *turnMap) resumeBase() {
	if !tm.t.Resume {
		return
	}
	tm.partBase = len(tm.t.Parts)
	tm.planName = tm.t.TurnID + ".plan.r" + strconv.Itoa(len(tm.t.Parts))
}
