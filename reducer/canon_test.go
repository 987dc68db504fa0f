package reducer

import (
	"encoding/json"
	"reflect"
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
	c := canonMsgHead(m)
	for _, b := range m.Blocks.All() {
		c.Blocks = append(c.Blocks, canonBlock(b))
	}
	return c
}

// canonMsgHead is a message's canonical form without its blocks.
func canonMsgHead(m *Message) cMsg {
	return cMsg{
		ID: m.ID, TurnID: m.TurnID, Role: m.Role.String(), Origin: m.Origin,
		Attachments: m.Attachments, StartedAt: m.StartedAt, Duration: m.Duration,
		Usage: m.Usage, Status: m.Status.String(),
	}
}

// canonBlockHead is a block's canonical form without its AHP payloads.
func canonBlockHead(b *Block) cBlock {
	return cBlock{
		ID: b.ID, Index: b.Index, Kind: b.Kind.String(), Open: b.Open, Text: b.Text(),
		Redacted: b.Redacted, Markdown: b.Markdown, Err: b.Err, Response: b.Response,
	}
}

func canonBlock(b *Block) cBlock {
	c := canonBlockHead(b)
	c.Tool, c.Input, c.Ref = jsonOf(b.Tool), jsonOf(b.Input), jsonOf(b.Ref)
	if b.Unknown != nil {
		c.Unknown = map[string]any{"kind": b.Unknown.Kind, "raw": jsonAny(b.Unknown.Raw)}
	}
	return c
}

// sameTranscript reports whether a and b have equal canonical forms, and
// returns both forms when they differ (for the failure message). It first
// compares the fields canonState keeps directly, the AHP payloads with
// reflect.DeepEqual: equal fields give equal canonical forms, so a quick
// "equal" is canonState's verdict without its JSON round trips (the bulk of
// TestReattachProperty's time). When the quick comparison finds a
// difference, both states are canonicalised and compared for real.
func sameTranscript(a, b State) (bool, canon, canon) {
	if quickEqual(a, b) {
		return true, canon{}, canon{}
	}
	g, w := canonState(a), canonState(b)
	return reflect.DeepEqual(g, w), g, w
}

// quickEqual compares what canonState keeps, field by field.
func quickEqual(a, b State) bool {
	if a.Activity != b.Activity || a.Totals != b.Totals || a.Ended != b.Ended || a.Failed != b.Failed ||
		a.EndReason != b.EndReason || !samePtr(a.LastError, b.LastError) ||
		!samePtr(a.Steering, b.Steering) || len(a.Queued) != len(b.Queued) ||
		(len(a.Queued) > 0 && !reflect.DeepEqual(a.Queued, b.Queued)) ||
		len(a.Messages) != len(b.Messages) || (a.Current == nil) != (b.Current == nil) {
		return false
	}
	for i := range a.Messages {
		if !quickMsgEqual(a.Messages[i], b.Messages[i]) {
			return false
		}
	}
	return a.Current == nil || quickMsgEqual(a.Current, b.Current)
}

func quickMsgEqual(a, b *Message) bool {
	if a == b {
		return true
	}
	if a.ID != b.ID || a.TurnID != b.TurnID || a.Role != b.Role || a.Origin != b.Origin ||
		a.StartedAt != b.StartedAt || a.Duration != b.Duration || a.Status != b.Status ||
		!samePtr(a.Usage, b.Usage) || a.Blocks.Len() != b.Blocks.Len() ||
		len(a.Attachments) != len(b.Attachments) ||
		(len(a.Attachments) > 0 && !reflect.DeepEqual(a.Attachments, b.Attachments)) {
		return false
	}
	// canonMsg keeps nil for no blocks either way; a nil and an empty
	// Attachments slice differ for canon's DeepEqual, so those fall back.
	if (a.Attachments == nil) != (b.Attachments == nil) {
		return false
	}
	for i := range a.Blocks.All() {
		if !quickBlockEqual(a.Blocks.At(i), b.Blocks.At(i)) {
			return false
		}
	}
	return true
}

func quickBlockEqual(a, b *Block) bool {
	if a == b {
		return true // blocks are immutable
	}
	return a.ID == b.ID && a.Index == b.Index && a.Kind == b.Kind && a.Open == b.Open &&
		a.Redacted == b.Redacted && a.Markdown == b.Markdown && a.Response == b.Response &&
		a.TextLen() == b.TextLen() && a.Text() == b.Text() && samePtr(a.Err, b.Err) &&
		samePtr(a.Tool, b.Tool) && samePtr(a.Input, b.Input) &&
		samePtr(a.Ref, b.Ref) && samePtr(a.Unknown, b.Unknown)
}

// samePtr is reflect.DeepEqual(a, b) without reflection when a and b are
// the same pointer or one is nil (most blocks carry no payload).
func samePtr[T any](a, b *T) bool {
	return a == b || (a != nil && b != nil && reflect.DeepEqual(a, b))
}
