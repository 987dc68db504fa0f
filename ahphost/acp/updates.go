package acp

import (
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// update maps one session/update of the running turn.
func (tm *turnMap) update(u sdk.SessionUpdate) {
	switch {
	case u.AgentMessageChunk != nil:
		tm.text(contentText(u.AgentMessageChunk.Content))
	case u.AgentThoughtChunk != nil:
		tm.thought(contentText(u.AgentThoughtChunk.Content))
	case u.ToolCall != nil:
		tm.toolCall(u.ToolCall)
	case u.ToolCallUpdate != nil:
		tm.toolCallUpdate(u.ToolCallUpdate)
	case u.Plan != nil:
		tm.plan(u.Plan.Entries)
	case u.UsageUpdate != nil:
		tm.mu.Lock()
		used := int64(u.UsageUpdate.Used)
		info := ahpwire.UsageInfo{InputTokens: &used}
		if tm.lastUsed != nil {
			info.OutputTokens, info.CacheReadTokens = tm.lastUsed.OutputTokens, tm.lastUsed.CacheReadTokens
		}
		tm.mu.Unlock()
		tm.usage(info)
	}
}

// contentText renders a content block as markdown text (images and audio
// as placeholders, resources as links).
func contentText(c sdk.ContentBlock) string {
	switch {
	case c.Text != nil:
		return c.Text.Text
	case c.Image != nil:
		return "[image]"
	case c.Audio != nil:
		return "[audio]"
	case c.ResourceLink != nil:
		return fmt.Sprintf("[%s](%s)", c.ResourceLink.Name, c.ResourceLink.Uri)
	case c.Resource != nil:
		if r := c.Resource.Resource.TextResourceContents; r != nil {
			return r.Text
		}
		return "[resource]"
	}
	return ""
}

// text appends agent message text: a new markdown part when the last part
// was something else, else a chat/delta.
func (tm *turnMap) text(s string) {
	tm.stream(s, &tm.textID, &tm.thinkID, "m", ahpwire.MarkdownPart,
		func(id string) ahpwire.Action { return &ahpwire.ChatDelta{TurnID: tm.t.TurnID, PartID: id, Content: s} })
}

// thought appends reasoning text, as text does markdown.
func (tm *turnMap) thought(s string) {
	tm.stream(s, &tm.thinkID, &tm.textID, "r", ahpwire.ReasoningPart,
		func(id string) ahpwire.Action {
			return &ahpwire.ChatReasoning{TurnID: tm.t.TurnID, PartID: id, Content: s}
		})
}

// stream appends s to the open part *cur (its delta), or opens a new part
// (newPart) when the last part was another kind (*other is then closed).
func (tm *turnMap) stream(s string, cur, other *string, kind string,
	newPart func(id, content string) ahpwire.ResponsePart, delta func(id string) ahpwire.Action) {
	if s == "" {
		return
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.clearActivityLocked() // retry.go
	*other = ""
	if *cur == "" {
		tm.parts++
		*cur = partID(tm.t.TurnID, kind, tm.partBase+tm.parts)
		tm.emitLocked(&ahpwire.ChatResponsePart{TurnID: tm.t.TurnID, Part: newPart(*cur, s)})
		return
	}
	tm.emitLocked(delta(*cur))
}

// usage replaces the turn's usage.
func (tm *turnMap) usage(u ahpwire.UsageInfo) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.lastUsed = &u
	tm.emitLocked(&ahpwire.ChatUsage{TurnID: tm.t.TurnID, Usage: u})
}

// plan shows the agent's plan as one "Plan" tool call whose checklist is
// replaced in place; it completes with the turn.
func (tm *turnMap) plan(entries []sdk.PlanEntry) {
	var b strings.Builder
	for _, e := range entries {
		mark := " "
		switch e.Status {
		case sdk.PlanEntryStatusCompleted:
			mark = "x"
		case sdk.PlanEntryStatusInProgress:
			mark = "~"
		}
		fmt.Fprintf(&b, "- [%s] %s\n", mark, strings.ReplaceAll(e.Content, "\n", " "))
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.textID, tm.thinkID = "", ""
	content := []ahpwire.ToolResultContent{ahpwire.TextContent(b.String())}
	if tm.planID == "" {
		tm.planID = tm.t.TurnID + ".plan"
		if tm.planName != "" {
			tm.planID = tm.planName
		}
		tm.emitLocked(&ahpwire.ChatToolCallStart{TurnID: tm.t.TurnID, ToolCallID: tm.planID, ToolName: "plan", DisplayName: "Plan"})
		tm.emitLocked(&ahpwire.ChatToolCallReady{TurnID: tm.t.TurnID, ToolCallID: tm.planID,
			InvocationMessage: ahpwire.Plain("Plan"), Confirmed: ahpwire.ConfirmedNotNeeded})
		tm.tools[tm.planID] = &toolMap{id: tm.planID, title: "Plan", ready: true, content: content}
	}
	tm.tools[tm.planID].content = content
	tm.emitLocked(&ahpwire.ChatToolCallContentChanged{TurnID: tm.t.TurnID, ToolCallID: tm.planID, Content: content})
}
