// The earlier conversation for an agent session that replaced one the
// agent could not resume (after a host restart, or after the agent
// crashed, when it offers neither session/resume nor session/load, or they
// fail): the host keeps every turn of the chat, the new agent session has
// none, so its first prompt opens with a transcript of the chat's latest
// turns (at most historyBytes), oldest first: each message, the reply's
// text (a long reply's pages read back from the host) and a line per tool
// call. The chat shows the user's message as it was; only the agent gets
// the transcript.

package acp

import (
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// historyBytes bounds the transcript given to a fresh agent session (the
// latest turns are kept; a longer turn keeps its end).
const historyBytes = 48 << 10

// historyIntro and historyOutro frame the transcript.
const (
	historyIntro = "This conversation began in an earlier session of yours that could not be resumed. " +
		"The host kept it; here is its latest part, oldest first, for context (do not answer it):\n\n"
	historyOutro = "\n\n(End of the earlier conversation. The user's new message follows.)"
)

// withHistory is the notice opening the first reply of such a session
// when the agent was given the transcript, by the notice it replaces.
var withHistory = map[string]string{
	afreshAfterCrash:   "_The agent restarted and cannot resume this conversation: it starts afresh, given the earlier messages as context._\n\n",
	afreshAfterRestart: "_The agent could not resume this conversation after the host restarted: it starts afresh, given the earlier messages as context._\n\n",
}

// historyBlock returns the transcript of chat's finished turns for a fresh
// agent session ("" when the host keeps none or offers no reader).
func historyBlock(t agent.Turn) string {
	r, ok := t.Channels.(agent.ChannelReader)
	if !ok {
		return ""
	}
	turns := r.ChatTurns(t.Chat)
	var kept []string
	left := historyBytes
	for i := len(turns) - 1; i >= 0 && left > 0; i-- {
		s := turnTranscript(turns[i], r)
		if len(s) > left {
			const cut = "…"
			s = cut + s[len(s)-max(0, left-len(cut)):]
		}
		kept = append(kept, s)
		left -= len(s)
	}
	if len(kept) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(historyIntro)
	for i := len(kept) - 1; i >= 0; i-- {
		b.WriteString(kept[i])
	}
	b.WriteString(historyOutro)
	return strings.ToValidUTF8(b.String(), "")
}

// turnTranscript is one turn as the transcript tells it.
func turnTranscript(tu ahpwire.Turn, r agent.ChannelReader) string {
	var b strings.Builder
	b.WriteString("User: " + strings.TrimSpace(tu.Message.Text) + "\n\nAssistant: ")
	for _, p := range tu.ResponseParts {
		switch {
		case p.Kind == ahpwire.PartMarkdown:
			b.WriteString(p.Content)
		case p.Ref != nil:
			if data, ok := r.ReadResource(p.Ref.URI); ok {
				b.Write(data)
			}
		case p.ToolCall != nil:
			b.WriteString("\n[tool call: " + toolLine(p.ToolCall) + "]\n")
		}
	}
	switch tu.State {
	case ahpwire.TurnComplete:
	case ahpwire.TurnCancelled:
		b.WriteString("\n[the user cancelled this reply]")
	default:
		b.WriteString("\n[this reply ended with an error]")
	}
	b.WriteString("\n\n")
	return b.String()
}

// toolLine is a tool call in one line: its title and how it ended.
func toolLine(tc *ahpwire.ToolCallState) string {
	title := tc.ToolName
	if tc.InvocationMessage != nil && tc.InvocationMessage.Text != "" {
		title = tc.InvocationMessage.Text
	}
	status := tc.Status
	switch {
	case tc.Status == ahpwire.ToolCancelled && tc.Reason != "":
		status = tc.Reason // denied, skipped, …
	case tc.Status == ahpwire.ToolCompleted && tc.Failed():
		status = "failed"
	}
	return strings.Join(strings.Fields(title), " ") + " — " + status
}
