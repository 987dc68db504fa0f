package acp

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// A denial's reason (the user's "r" in the approval prompt) has no field in
// ACP's permission outcome: the agent would only learn "rejected". The
// bridge tells it the way an agent reads anything, as a user message: when
// the prompt in which the user denied with a reason ends, the same AHP turn
// sends one more session/prompt holding the reasons, and the agent's answer
// to it continues the turn (as Claude Code's own TUI hands the model the
// feedback with the rejected tool's result).

// maxFollowUps bounds the follow-up prompts of one turn.
const maxFollowUps = 3

// maxReason bounds one reason as sent to the agent.
const maxReason = 4 << 10

// noteDenial keeps the reason of a denied tool call for the follow-up.
func (tm *turnMap) noteDenial(toolCallID string, ans *ahpwire.ChatToolCallConfirmed) {
	var said []string
	if ans.ReasonMessage != nil {
		said = append(said, strings.TrimSpace(ans.ReasonMessage.Text))
	}
	if ans.UserSuggestion != nil {
		said = append(said, strings.TrimSpace(ans.UserSuggestion.Text))
	}
	reason := strings.TrimSpace(strings.Join(said, " "))
	if reason == "" {
		return
	}
	if len(reason) > maxReason {
		reason = reason[:maxReason] + "…"
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	title := "a tool call"
	if tc := tm.tools[toolCallID]; tc != nil && tc.title != "" {
		title = fmt.Sprintf("%q", tc.title)
	}
	tm.denials = append(tm.denials, fmt.Sprintf("Permission denied for %s. The user's reason: %s", title, reason))
}

// takeFollowUp returns the follow-up prompt's text ("" = none) and shows
// in the transcript that the reasons went to the agent.
func (tm *turnMap) takeFollowUp() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if len(tm.denials) == 0 || tm.followUps >= maxFollowUps || tm.done {
		return ""
	}
	text := strings.Join(tm.denials, "\n")
	tm.denials = nil
	tm.followUps++
	tm.textID, tm.thinkID = "", ""
	tm.parts++
	n := ahpwire.Plain("Sent to the agent: " + text)
	tm.emitLocked(&ahpwire.ChatResponsePart{TurnID: tm.t.TurnID, Part: ahpwire.ResponsePart{
		Kind: ahpwire.PartSystemNotification, ID: partID(tm.t.TurnID, "n", tm.partBase+tm.parts), Notification: &n}})
	return text
}
