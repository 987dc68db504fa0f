package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// eventWriter writes exec's output: plain markdown text (sanitised, no
// escape sequences) or one JSON object per line. In plain mode, notes about
// tool calls and approvals go to notes (stderr), one line each.
type eventWriter struct {
	w       io.Writer
	notes   io.Writer
	json    bool
	enc     *json.Encoder
	endLine bool   // the plain text so far does not end with a newline
	part    string // the markdown part the plain text so far ends in
	// held is output waiting for the pages being read before it, readers
	// the page reads running (pages.go).
	held    []held
	readers chan struct{}
}

func newEventWriter(w io.Writer, asJSON bool) *eventWriter {
	return &eventWriter{w: w, json: asJSON, enc: json.NewEncoder(w)}
}

// note writes one plain-mode line about a tool call to notes.
func (e *eventWriter) note(format string, args ...any) {
	e.do(func() { e.writeNote(format, args...) })
}

// writeNote is note, now.
func (e *eventWriter) writeNote(format string, args ...any) {
	if e.json || e.notes == nil {
		return
	}
	_, _ = io.WriteString(e.notes, "ahptui: "+sanitizeLine(fmt.Sprintf(format, args...))+"\n")
}

// event writes a JSON event {"type": typ, k1: v1, ...} (JSON mode only).
func (e *eventWriter) event(typ string, kv ...any) {
	e.do(func() { e.writeEvent(typ, kv...) })
}

// writeEvent is event, now.
func (e *eventWriter) writeEvent(typ string, kv ...any) {
	if !e.json {
		return
	}
	m := map[string]any{"type": typ}
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	_ = e.enc.Encode(m)
}

// text writes answer text.
func (e *eventWriter) text(partID, s string) {
	e.do(func() { e.writeText(partID, s) })
}

// writeText is text, now.
func (e *eventWriter) writeText(partID, s string) {
	if e.json {
		e.writeEvent("text", "partId", partID, "text", s)
		return
	}
	s = render.Sanitize(s)
	if s == "" {
		return
	}
	if e.part != "" && partID != e.part {
		// A new paragraph (text before and after a tool call are two
		// parts: "I will run it." then "It ran.").
		sep := "\n"
		if e.endLine {
			sep = "\n\n"
		}
		_, _ = io.WriteString(e.w, sep)
	}
	e.part = partID
	_, _ = io.WriteString(e.w, s)
	e.endLine = !strings.HasSuffix(s, "\n")
}

// tool reports a tool call's status (stderr-free: JSON only; plain mode
// keeps stdout for the answer).
func (e *eventWriter) tool(id, name, status string, success *bool) {
	kv := []any{"toolCallId", id, "name", name, "status", status}
	if success != nil {
		kv = append(kv, "success", *success)
	}
	e.do(func() {
		e.writeEvent("tool_call", kv...)
		if status != "started" {
			e.writeNote("tool %s: %s", name, status)
		}
	})
}

// approval reports an approval request and the decision taken.
func (e *eventWriter) approval(id, name, title, decision string) {
	e.do(func() {
		e.writeEvent("approval_request", "toolCallId", id, "name", name, "title", title, "decision", decision)
		e.writeNote("approval for %s: %s", name, decision)
	})
}

// activity reports what the agent is doing when it says so (a model API
// retry, "Retrying Claude, attempt 3 of 10."); an empty one, cleared, is
// not reported.
func (e *eventWriter) activity(s string) {
	if s == "" {
		return
	}
	e.do(func() {
		e.writeEvent("activity", "activity", s)
		e.writeNote("%s", s)
	})
}

// input reports a question from the host.
func (e *eventWriter) input(r ahpwire.ChatInputRequest) {
	e.event("input_requested", "requestId", r.ID, "message", r.Message, "questions", r.Questions)
}

// end reports the end of the turn and finishes the plain text's last line,
// after every page of the reply (waiting for those being read).
func (e *eventWriter) end(state string, durationMs int64, usage *ahpwire.UsageInfo, msg string) {
	e.do(func() { e.writeEnd(state, durationMs, usage, msg) })
	e.pump(true)
}

// writeEnd is end, now.
func (e *eventWriter) writeEnd(state string, durationMs int64, usage *ahpwire.UsageInfo, msg string) {
	kv := []any{"state", state, "durationMs", durationMs}
	if usage != nil {
		kv = append(kv, "usage", usage)
	}
	if msg != "" {
		kv = append(kv, "error", msg)
	}
	e.writeEvent("turn_end", kv...)
	if !e.json && e.endLine {
		_, _ = io.WriteString(e.w, "\n")
		e.endLine = false
	}
}

// sanitizeLine makes server text safe for one line of a message.
func sanitizeLine(s string) string {
	s = strings.ReplaceAll(render.Sanitize(s), "\n", " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
