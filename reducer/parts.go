package reducer

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// This file maps AHP response parts and turn fields onto blocks and
// messages. It decides how things are shown, never which AHP transitions
// apply (that is package ahpstate's). AHP payloads (tool calls, input
// requests, content references) are shared, not copied: everything in an
// ahpwire state is immutable once published.

// partStart returns the BlockStart that shows part p in message msgID.
// Every part gets a block, so that block i of an active turn's message is
// part i of the turn: parts without their payload and kinds this client
// does not know become KindUnknown blocks (kept, not rendered).
func partStart(msgID string, p *ahpwire.ResponsePart) BlockStart {
	b := BlockStart{MessageID: msgID, BlockID: p.ID}
	switch {
	case p.Kind == ahpwire.PartMarkdown || p.Kind == ahpwire.PartReasoning:
		b.text = p.Text()
		b.Kind, b.Text = KindText, b.text.String()
		if p.Kind == ahpwire.PartReasoning {
			b.Kind = KindThinking
		}
	case p.Kind == ahpwire.PartSystemNotification:
		b.Kind = KindSystemNotification
		if p.Notification != nil {
			b.Text, b.Markdown = p.Notification.Text, p.Notification.Markdown
		}
	case p.Kind == ahpwire.PartContentRef && p.Ref != nil:
		b.Kind, b.Ref = KindContentRef, p.Ref
	case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil:
		b.Kind, b.Tool, b.BlockID = KindToolCall, p.ToolCall, p.ToolCall.ToolCallID
	case p.Kind == ahpwire.PartInputRequest && p.Request != nil:
		b.Kind, b.Input, b.Response, b.BlockID = KindInputRequest, p.Request, p.Response, p.Request.ID
	case p.Kind == ahpwire.PartError:
		e := ErrorInfo{ErrorType: "unknown", Message: "unknown error"}
		if p.Error != nil {
			e = errorInfo(*p.Error, p.Resumable != nil && *p.Resumable)
		}
		b.Kind, b.Err = KindError, &e
	default:
		b.Kind = KindUnknown
		b.Unknown = &UnknownPart{Kind: p.Kind, Raw: p.Raw}
		b.BlockID = partID(p.Raw)
	}
	return b
}

// partOpen reports whether the block of part p is open while its turn is
// active (text and thinking, non-terminal tool calls, unanswered input
// requests).
func partOpen(p *ahpwire.ResponsePart) bool {
	switch {
	case p.Kind == ahpwire.PartMarkdown || p.Kind == ahpwire.PartReasoning:
		return true
	case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil:
		return !p.ToolCall.IsTerminal()
	case p.Kind == ahpwire.PartInputRequest && p.Request != nil:
		return p.Response == ""
	}
	return false
}

// samePart reports whether a and b show the same: a part an action did
// not touch (ahpstate copies on write, so pointers and strings suffice).
func samePart(a, b *ahpwire.ResponsePart) bool {
	return a.Kind == b.Kind && a.ID == b.ID && a.Content == b.Content && a.Response == b.Response &&
		a.ToolCall == b.ToolCall && a.Request == b.Request && a.Ref == b.Ref &&
		a.Notification == b.Notification && a.Error == b.Error && a.Resumable == b.Resumable &&
		len(a.Raw) == len(b.Raw) && (len(a.Raw) == 0 || &a.Raw[0] == &b.Raw[0])
}

func errorInfo(e ahpwire.ErrorInfo, resumable bool) ErrorInfo {
	return ErrorInfo{ErrorType: e.ErrorType, Message: e.Message, Stack: e.Stack, Resumable: resumable}
}

func usage(u ahpwire.UsageInfo) Usage {
	out := Usage{Model: u.Model}
	if u.InputTokens != nil {
		out.InputTokens = *u.InputTokens
	}
	if u.OutputTokens != nil {
		out.OutputTokens = *u.OutputTokens
	}
	if u.CacheReadTokens != nil {
		out.CacheReadTokens = *u.CacheReadTokens
	}
	return out
}

func attachments(as []ahpwire.MessageAttachment) []Attachment {
	var out []Attachment
	for _, a := range as {
		uri := a.URI
		if uri == "" {
			uri = a.Resource
		}
		out = append(out, Attachment{Type: a.Type, Label: a.Label, URI: uri})
	}
	return out
}

// timestamp parses an ISO-8601 timestamp (or epoch milliseconds); zero if
// absent or unparsable.
func timestamp(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC()
	}
	var ms int64
	if json.Unmarshal([]byte(s), &ms) == nil && !strings.ContainsAny(s, ".eE") {
		return time.UnixMilli(ms).UTC()
	}
	return time.Time{}
}

func duration(ms *int64) time.Duration {
	if ms == nil || *ms < 0 {
		return 0
	}
	const maxMS = int64(1<<63-1) / int64(time.Millisecond)
	if *ms > maxMS {
		return time.Duration(maxMS) * time.Millisecond
	}
	return time.Duration(*ms) * time.Millisecond
}

// partID returns the string "id" member of an unknown part's JSON.
func partID(raw json.RawMessage) string {
	var v struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	s, _ := v.ID.(string)
	return s
}
