package ahpwire

import (
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/internal/textbuf"
)

// Response part kinds (ResponsePartKind).
const (
	PartMarkdown           = "markdown"
	PartContentRef         = "contentRef"
	PartToolCall           = "toolCall"
	PartReasoning          = "reasoning"
	PartSystemNotification = "systemNotification"
	PartInputRequest       = "inputRequest"
	PartError              = "error"
)

// KnownPartKind reports whether k is a response-part kind this package knows.
func KnownPartKind(k string) bool {
	switch k {
	case PartMarkdown, PartContentRef, PartToolCall, PartReasoning,
		PartSystemNotification, PartInputRequest, PartError:
		return true
	}
	return false
}

// ResponsePart is one item of a turn's response stream: a flat union
// discriminated by Kind. Unknown kinds are kept verbatim in Raw.
//
//   - markdown, reasoning: ID, Content
//   - contentRef: Ref
//   - toolCall: ToolCall
//   - systemNotification: Notification, Meta
//   - inputRequest: Request, Response
//   - error: Error, Resumable
type ResponsePart struct {
	Kind         string
	ID           string
	Content      string
	Ref          *ContentRef
	ToolCall     *ToolCallState
	Notification *StringOrMarkdown
	Request      *ChatInputRequest
	Response     string
	Error        *ErrorInfo
	Resumable    *bool
	Meta         Meta
	Raw          json.RawMessage

	// text is the append-only text Content may view (see AppendContent);
	// empty for parts built or decoded any other way.
	text textbuf.Text
}

// MarkdownPart returns a markdown part.
func MarkdownPart(id, content string) ResponsePart {
	return ResponsePart{Kind: PartMarkdown, ID: id, Content: content}
}

// ReasoningPart returns a reasoning part.
func ReasoningPart(id, content string) ResponsePart {
	return ResponsePart{Kind: PartReasoning, ID: id, Content: content}
}

// ErrorPart returns an error part.
func ErrorPart(e ErrorInfo, resumable bool) ResponsePart {
	p := ResponsePart{Kind: PartError, Error: &e}
	if resumable {
		t := true
		p.Resumable = &t
	}
	return p
}

// TargetID returns the id actions use to address the part: ID for
// markdown/reasoning, toolCallId for tool calls, request id for input
// requests, "" otherwise.
func (p *ResponsePart) TargetID() string {
	switch p.Kind {
	case PartToolCall:
		if p.ToolCall != nil {
			return p.ToolCall.ToolCallID
		}
		return ""
	case PartInputRequest:
		if p.Request != nil {
			return p.Request.ID
		}
		return ""
	}
	return p.ID
}

type partText struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Content string `json:"content"`
}

type partRef struct {
	Kind string `json:"kind"`
	ContentRef
}

type partTool struct {
	Kind     string         `json:"kind"`
	ToolCall *ToolCallState `json:"toolCall"`
}

type partNotification struct {
	Kind    string            `json:"kind"`
	Content *StringOrMarkdown `json:"content"`
	Meta    Meta              `json:"_meta,omitempty"`
}

type partInput struct {
	Kind     string            `json:"kind"`
	Request  *ChatInputRequest `json:"request"`
	Response string            `json:"response,omitempty"`
}

type partError struct {
	Kind      string     `json:"kind"`
	Error     *ErrorInfo `json:"error"`
	Resumable *bool      `json:"resumable,omitempty"`
}

// MarshalJSON writes the fields of the part's kind.
func (p ResponsePart) MarshalJSON() ([]byte, error) {
	switch p.Kind {
	case PartMarkdown, PartReasoning:
		return json.Marshal(partText{p.Kind, p.ID, p.Content})
	case PartContentRef:
		r := ContentRef{}
		if p.Ref != nil {
			r = *p.Ref
		}
		return json.Marshal(partRef{p.Kind, r})
	case PartToolCall:
		return json.Marshal(partTool{p.Kind, p.ToolCall})
	case PartSystemNotification:
		n := p.Notification
		if n == nil {
			n = &StringOrMarkdown{}
		}
		return json.Marshal(partNotification{p.Kind, n, p.Meta})
	case PartInputRequest:
		return json.Marshal(partInput{p.Kind, p.Request, p.Response})
	case PartError:
		return json.Marshal(partError{p.Kind, p.Error, p.Resumable})
	}
	if len(p.Raw) > 0 {
		return p.Raw, nil
	}
	return json.Marshal(struct {
		Kind string `json:"kind"`
	}{p.Kind})
}

// UnmarshalJSON decodes a part by kind; unknown kinds keep Raw.
func (p *ResponsePart) UnmarshalJSON(data []byte) error {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("ahpwire: response part: %w", err)
	}
	*p = ResponsePart{Kind: head.Kind}
	var err error
	switch head.Kind {
	case PartMarkdown, PartReasoning:
		var v partText
		err = json.Unmarshal(data, &v)
		p.ID, p.Content = v.ID, v.Content
	case PartContentRef:
		var v partRef
		err = json.Unmarshal(data, &v)
		p.Ref = &v.ContentRef
	case PartToolCall:
		var v partTool
		err = json.Unmarshal(data, &v)
		p.ToolCall = v.ToolCall
	case PartSystemNotification:
		var v partNotification
		err = json.Unmarshal(data, &v)
		p.Notification, p.Meta = v.Content, v.Meta
	case PartInputRequest:
		var v partInput
		err = json.Unmarshal(data, &v)
		p.Request, p.Response = v.Request, v.Response
	case PartError:
		var v partError
		err = json.Unmarshal(data, &v)
		p.Error, p.Resumable = v.Error, v.Resumable
	default:
		p.Raw = append(json.RawMessage(nil), data...)
	}
	if err != nil {
		return fmt.Errorf("ahpwire: %s response part: %w", head.Kind, err)
	}
	return nil
}
