package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// toolMap is the AHP side of one ACP tool call.
type toolMap struct {
	id      string
	title   string
	kind    string
	input   string
	ready   bool                        // toolCallReady sent (running or pending confirmation)
	pending bool                        // waiting for a permission answer
	done    bool                        // completed or cancelled on the AHP side
	content []ahpwire.ToolResultContent // body, then where
	// body is the agent's content, mapped; where its locations
	// ("Locations: …", or nil). An update replaces each only when it
	// carries it: Codex's permission request names the file (locations)
	// of an apply_patch whose diff came before (content).
	body  []ahpwire.ToolResultContent
	where *ahpwire.ToolResultContent
	diffs int
	// The files its diff content names and their content before it ran;
	// succeeded and recorded: completed, and its changes taken into the
	// session's changeset (edits.go).
	edited              []string
	before              map[string]fileBefore
	succeeded, recorded bool
}

// maxToolInput bounds the raw input shown for one tool call.
const maxToolInput = 64 << 10

// rawJSON renders a tool's raw input (bounded).
func rawJSON(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if len(b) > maxToolInput {
		return string(b[:maxToolInput]) + "…"
	}
	return string(b)
}

// toolCall maps a new ACP tool call.
func (tm *turnMap) toolCall(c *sdk.SessionUpdateToolCall) {
	tm.mu.Lock()
	st := c.Status
	tm.upsertLocked(string(c.ToolCallId), &c.Title, (*sdk.ToolKind)(&c.Kind), c.RawInput, c.Content, c.Locations, &st)
	tm.mu.Unlock()
	tm.trackEdits(string(c.ToolCallId), c.Meta)
}

// toolCallUpdate maps an ACP tool call update.
func (tm *turnMap) toolCallUpdate(c *sdk.SessionToolCallUpdate) {
	tm.mu.Lock()
	tm.upsertLocked(string(c.ToolCallId), c.Title, c.Kind, c.RawInput, c.Content, c.Locations, c.Status)
	tm.mu.Unlock()
	tm.trackEdits(string(c.ToolCallId), c.Meta)
}

// upsertLocked starts the tool call when it is new, then applies the
// fields and status of an update. tm.mu is held.
func (tm *turnMap) upsertLocked(id string, title *string, kind *sdk.ToolKind, raw any, content []sdk.ToolCallContent,
	locs []sdk.ToolCallLocation, status *sdk.ToolCallStatus) {
	tm.textID, tm.thinkID = "", ""
	tc := tm.tools[id]
	if tc == nil {
		tc = &toolMap{id: id, title: "Tool call", kind: "other"}
		if title != nil && *title != "" {
			tc.title = *title
		}
		if kind != nil && *kind != "" {
			tc.kind = string(*kind)
		}
		tm.tools[id] = tc
		close(tm.toolSeen)
		tm.toolSeen = make(chan struct{})
		tm.emitLocked(&ahpwire.ChatToolCallStart{TurnID: tm.t.TurnID, ToolCallID: id, ToolName: tc.kind, DisplayName: tc.title})
	} else if title != nil && *title != "" {
		tc.title = *title
	}
	if tc.done {
		return
	}
	if in := rawJSON(raw); in != "" {
		tc.input = in
	}
	if content != nil {
		content = absDiffs(content, tm.s.dir)
		tc.body = tm.toolContent(tc, content)
		tc.notePaths(content)
	}
	if locs != nil {
		tc.where = tm.locations(locs)
	}
	if content != nil || locs != nil {
		tc.content = append([]ahpwire.ToolResultContent(nil), tc.body...)
		if tc.where != nil {
			tc.content = append(tc.content, *tc.where)
		}
	}
	var s sdk.ToolCallStatus
	if status != nil {
		s = *status
	}
	switch s {
	case sdk.ToolCallStatusInProgress:
		tm.readyLocked(tc)
		if content != nil || locs != nil {
			tm.emitLocked(&ahpwire.ChatToolCallContentChanged{TurnID: tm.t.TurnID, ToolCallID: id, Content: tc.content})
		}
	case sdk.ToolCallStatusCompleted, sdk.ToolCallStatusFailed:
		tm.completeLocked(tc, s == sdk.ToolCallStatusCompleted, "")
	default:
		if tc.ready && !tc.pending && (content != nil || locs != nil) {
			tm.emitLocked(&ahpwire.ChatToolCallContentChanged{TurnID: tm.t.TurnID, ToolCallID: id, Content: tc.content})
		}
	}
}

// readyLocked moves a streaming tool call to running (no confirmation).
func (tm *turnMap) readyLocked(tc *toolMap) {
	if tc.ready {
		return
	}
	tc.ready = true
	tm.emitLocked(&ahpwire.ChatToolCallReady{TurnID: tm.t.TurnID, ToolCallID: tc.id,
		InvocationMessage: ahpwire.Plain(tc.title), ToolInput: inputOf(tc), Confirmed: ahpwire.ConfirmedNotNeeded})
}

// inputOf returns the tool's input for toolCallReady (nil when none).
func inputOf(tc *toolMap) *ahpwire.ToolInput {
	if tc.input == "" {
		return nil
	}
	return ahpwire.InlineInput(tc.input)
}

// completeLocked ends a tool call with its result.
func (tm *turnMap) completeLocked(tc *toolMap, ok bool, failure string) {
	if tc.done {
		return
	}
	tm.readyLocked(tc)
	tc.done, tc.succeeded = true, ok
	res := ahpwire.ToolCallResult{Success: ok, PastTenseMessage: ahpwire.Plain(tc.title), Content: tc.content}
	if !ok {
		if failure == "" {
			failure = "the tool call failed"
			for _, c := range tc.content {
				if c.Type == ahpwire.ContentText && c.Text != "" {
					failure = c.Text
					break
				}
			}
		}
		res.Error = &ahpwire.ToolError{Message: failure}
	}
	tm.emitLocked(&ahpwire.ChatToolCallComplete{TurnID: tm.t.TurnID, ToolCallID: tc.id, Result: res})
}

// closeToolsLocked ends every open tool call with the turn: the plan and
// (ok) finished ones as completed, others as failed.
func (tm *turnMap) closeToolsLocked(ok bool) {
	for _, tc := range tm.tools {
		if tc.done {
			continue
		}
		if tc.pending {
			continue // the host cancels pending confirmations with the turn
		}
		tm.completeLocked(tc, ok || tc.id == tm.planID, "the turn ended before the tool call finished")
	}
}

// toolContent maps ACP tool call content.
func (tm *turnMap) toolContent(tc *toolMap, content []sdk.ToolCallContent) []ahpwire.ToolResultContent {
	var out []ahpwire.ToolResultContent
	for _, c := range content {
		switch {
		case c.Content != nil:
			out = append(out, ahpwire.TextContent(unfence(contentText(c.Content.Content))))
		case c.Diff != nil:
			out = append(out, tm.diffContent(tc, c.Diff))
		case c.Terminal != nil:
			if term := tm.s.terminal(c.Terminal.TerminalId); term != nil {
				out = append(out, ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: term.uri, Title: term.title, IsPty: ahpwire.Ptr(true)})
				term.attach(tm.t.TurnID, tc.id)
			}
		}
	}
	return out
}

// locations maps ACP tool call locations to a "Locations: …" line (nil
// when there are none).
func (tm *turnMap) locations(locs []sdk.ToolCallLocation) *ahpwire.ToolResultContent {
	if len(locs) == 0 {
		return nil
	}
	var l []string
	for _, loc := range locs {
		p := tm.rel(loc.Path)
		if loc.Line != nil {
			p += fmt.Sprintf(":%d", *loc.Line)
		}
		l = append(l, p)
	}
	c := ahpwire.TextContent("Locations: " + strings.Join(l, ", "))
	return &c
}

// rel shows path relative to the session's directory when it is inside.
func (tm *turnMap) rel(path string) string {
	if r, err := filepath.Rel(tm.s.dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// diffContent stores a diff's sides as resources and returns its fileEdit.
func (tm *turnMap) diffContent(tc *toolMap, d *sdk.ToolCallContentDiff) ahpwire.ToolResultContent {
	tc.diffs++
	before, after := d.OldText, d.NewText
	if before == nil {
		before = tm.overwritten(tc, d.Path, d.NewText) // edits.go
	} else if whole, edited, ok := tm.inFile(tc, d.Path, *before, d.NewText); ok {
		before, after = &whole, edited // edits.go
	}
	fe := tm.fileEdit(fmt.Sprintf("%s/%s-%d", tm.t.TurnID, tc.id, tc.diffs), d.Path, before, after)
	return ahpwire.ToolResultContent{Type: ahpwire.ContentFileEdit, Before: fe.Before, After: fe.After, Diff: fe.Diff}
}

// fileEdit stores before (nil = created) and after as resources under key.
func (tm *turnMap) fileEdit(key, path string, before *string, after string) ahpwire.FileEdit {
	uri := fileURI(path)
	side := func(which, text string) *ahpwire.FileEditSide {
		// Scoped by the chat: another chat's turn or file never names it.
		cu := tm.contentPrefix() + key + "/" + which
		if ch := tm.t.Channels; ch != nil {
			ch.PutResource(cu, "text/plain", []byte(text))
		}
		return &ahpwire.FileEditSide{URI: uri, Content: ahpwire.ContentRef{URI: cu, ContentType: "text/plain", SizeHint: ahpwire.Ptr(int64(len(text)))}}
	}
	var fe ahpwire.FileEdit
	oldText := ""
	if before != nil {
		fe.Before = side("before", *before)
		oldText = *before
	}
	fe.After = side("after", after)
	added, removed := lineDiff(oldText, after)
	fe.Diff = &ahpwire.FileEditDiffStats{Added: &added, Removed: &removed}
	return fe
}

// lineDiff counts added and removed lines (multiset difference).
func lineDiff(a, b string) (added, removed int64) {
	count := map[string]int{}
	for _, l := range splitLines(a) {
		count[l]++
	}
	for _, l := range splitLines(b) {
		if count[l] > 0 {
			count[l]--
		} else {
			added++
		}
	}
	for _, n := range count {
		removed += int64(n)
	}
	return added, removed
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) string { return "file://" + filepath.ToSlash(path) }

// unfence returns the body of a text that is one fenced code block: an
// ACP tool's text content is markdown (Claude Code's adapter fences a
// Read's file and an error), AHP's is plain text. Other text is kept.
func unfence(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	fence := strings.TrimRight(first, " ")
	n := len(fence) - len(strings.TrimLeft(fence, "`"))
	if !ok || n < 3 || strings.Contains(fence[n:], "`") {
		return s
	}
	rest = strings.TrimRight(rest, "\n ")
	if rest == fence[:n] {
		return ""
	}
	body, ok := strings.CutSuffix(rest, "\n"+fence[:n])
	if !ok {
		return s
	}
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, fence[:n]) {
			return s // more than one block
		}
	}
	return body
}

// absDiffs returns content with relative diff paths made absolute in dir:
// ACP wants absolute paths, but Claude Code's adapter (0.101) reports a
// finished edit's diff relative to the project, and the whole file (for the
// hunk's line numbers) is found only by an absolute path (the transcript
// said "@@ -1,6" where the approval prompt said "@@ -6,6").
func absDiffs(content []sdk.ToolCallContent, dir string) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	for i, c := range content {
		if c.Diff == nil || c.Diff.Path == "" || filepath.IsAbs(c.Diff.Path) {
			continue
		}
		if out == nil {
			out = append([]sdk.ToolCallContent(nil), content...)
		}
		d := *c.Diff
		d.Path = filepath.Join(dir, filepath.FromSlash(d.Path))
		out[i].Diff = &d
	}
	if out == nil {
		return content
	}
	return out
}
