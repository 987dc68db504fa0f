package reducer

import (
	"encoding/json"
	"time"

	"github.com/ahptui/ahptui/internal/ahpfixtures"
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
	Err      *ErrorInfo
	Response string
	// Tool, Input, Ref and Unknown are the AHP payloads as JSON values, so
	// that equal content compares equal whether or not it is shared.
	Tool, Input, Ref, Unknown any
}

// jsonOf returns v's JSON as a generic value (nil for a nil pointer).
func jsonOf[T any](v *T) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return ahpfixtures.StripNulls(jsonAny(b)) // absent and null are the same
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
		Redacted: b.Redacted, Markdown: b.Markdown, Err: b.Err, Response: b.Response,
		Tool: jsonOf(b.Tool), Input: jsonOf(b.Input), Ref: jsonOf(b.Ref),
	}
	if b.Unknown != nil {
		c.Unknown = map[string]any{"kind": b.Unknown.Kind, "raw": jsonAny(b.Unknown.Raw)}
	}
	return c
}
