package reducer

import (
	"encoding/json"
	"github.com/ahptui/ahptui/internal/textbuf"
	"time"
)

// canon is a comparable view of a State's transcript: everything a renderer
// shows, without the lineage-dependent Seq/Rev counters and diagnostics.
type canon struct {
	Messages []cMsg
	Current  *cMsg
	Steering *PendingMessage
	Queued   []PendingMessage
	Activity string
	Totals   Usage
	Ended    bool
	Failed   bool
	Reason   string
	LastErr  *ErrorInfo
}

type cMsg struct {
	ID, TurnID, Role, Origin string
	Attachments              []Attachment
	Blocks                   []cBlock
	StartedAt                time.Time
	Duration                 time.Duration
	Usage                    *Usage
	Status                   string
}

type cBlock struct {
	ID       string
	Index    int
	Kind     string
	Open     bool
	Text     string
	Redacted bool
	Markdown bool
	Tool     *cTool
	Err      *ErrorInfo
	Input    *InputRequest
	Ref      *ContentRef
	Unknown  any
}

type cTool struct {
	ToolCall
	Partial    string
	MetaV      any
	ContentV   []ToolContent
	StructureV any
}

func jsonAny(raw []byte) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}

func canonState(s State) canon {
	c := canon{
		Steering: s.Steering, Queued: s.Queued, Activity: s.Activity, Totals: s.Totals,
		Ended: s.Ended, Failed: s.Failed, Reason: s.EndReason, LastErr: s.LastError,
	}
	if len(c.Queued) == 0 {
		c.Queued = nil
	}
	for _, m := range s.Messages {
		c.Messages = append(c.Messages, canonMsg(m))
	}
	if s.Current != nil {
		m := canonMsg(s.Current)
		c.Current = &m
	}
	return c
}

func canonMsg(m *Message) cMsg {
	c := cMsg{
		ID: m.ID, TurnID: m.TurnID, Role: m.Role.String(), Origin: m.Origin,
		Attachments: m.Attachments, StartedAt: m.StartedAt, Duration: m.Duration,
		Usage: m.Usage, Status: m.Status.String(),
	}
	for _, b := range m.Blocks {
		c.Blocks = append(c.Blocks, canonBlock(b))
	}
	return c
}

func canonBlock(b *Block) cBlock {
	c := cBlock{
		ID: b.ID, Index: b.Index, Kind: b.Kind.String(), Open: b.Open, Text: b.Text(),
		Redacted: b.Redacted, Markdown: b.Markdown, Err: b.Err, Input: b.Input, Ref: b.Ref,
	}
	if b.Unknown != nil {
		c.Unknown = map[string]any{"kind": b.Unknown.Kind, "raw": jsonAny(b.Unknown.Raw)}
	}
	if b.Tool != nil {
		t := cTool{ToolCall: *b.Tool, Partial: b.Tool.PartialInput()}
		t.partial = textbuf.Text{}
		if t.Meta != nil {
			m := map[string]any{}
			for k, v := range t.Meta {
				m[k] = jsonAny(v)
			}
			t.MetaV = m
		}
		t.Meta = nil
		for _, ct := range t.Content {
			ct.Raw = json.RawMessage(nil)
			t.ContentV = append(t.ContentV, ct)
		}
		t.Content = nil
		if t.Result != nil {
			r := *t.Result
			t.StructureV = jsonAny(r.Structured)
			r.Structured = nil
			t.Result = &r
		}
		c.Tool = &t
	}
	return c
}
