package chat

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// thinkingView is the global way thinking blocks are shown.
type thinkingView int

const (
	thinkingCollapsed thinkingView = iota // one summary line
	thinkingTail                          // the last few lines while streaming
	ThinkingFull                          // everything
)

func (v thinkingView) String() string {
	switch v {
	case thinkingTail:
		return "tail"
	case ThinkingFull:
		return "full"
	}
	return "collapsed"
}

// describe explains the view in the notice shown when it changes.
func (v thinkingView) describe() string {
	switch v {
	case thinkingTail:
		return "tail (the last lines while the agent thinks)"
	case ThinkingFull:
		return "full (all thinking text)"
	}
	return "collapsed (one line; enter on a block expands it)"
}

func (v thinkingView) mode() render.ThinkingMode {
	switch v {
	case thinkingTail:
		return render.ThinkingTail
	case ThinkingFull:
		return render.ThinkingFull
	}
	return render.ThinkingCollapsed
}

// SpanID encodes a block key as a span id.
func SpanID(k render.BlockKey) string { return k.MessageID + "#" + strconv.Itoa(k.Index) }

// parseSpanID decodes a span id.
func parseSpanID(id string) (render.BlockKey, bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return render.BlockKey{}, false
	}
	n, err := strconv.Atoi(id[i+1:])
	return render.BlockKey{MessageID: id[:i], Index: n}, err == nil
}

// renderItem renders transcript item i (a finished message or Current)
// through the render package, which caches finished messages.
func (m *Model) renderItem(i, width int) renderedItem {
	msg := m.MessageAt(i)
	if msg == nil {
		return renderedItem{}
	}
	v := m.ViewOptsBase()
	if m.Focus == FocusTranscript && m.Transcript.fItem == i {
		if k, ok := parseSpanID(m.Transcript.FocusBlockID); ok {
			v.Focused = k
		}
	}
	r := m.c.Renderer.RenderMessage(msg, width, v)
	if len(r.Lines) == 0 && r.Sections == nil {
		return m.withEarlierLine(i, width, renderedItem{}) // nothing to show: no spacer either
	}
	out := renderedItem{lines: r.Lines, spans: make([]blockSpan, 0, len(r.Spans))}
	for _, s := range r.Spans {
		sp := blockSpan{
			ID: SpanID(s.Key), Start: s.Start, End: s.End, StartSec: s.StartSec, EndSec: s.EndSec,
			Expandable: s.Kind == reducer.KindThinking || s.Kind == reducer.KindToolCall || s.Kind == reducer.KindError,
		}
		if s.Kind == reducer.KindText && msg.Role == reducer.RoleUser {
			for _, b := range msg.Blocks.All() {
				if b.Index == s.Key.Index && render.UserFoldable(msg, b) {
					sp.Expandable = true // a folded paste (render/userfold.go)
				}
			}
		}
		// A block starting with a page starts at the end of the section
		// before it: anchor it at the page.
		if r.Sections != nil && sp.StartSec < len(r.Sections) && r.Sections[sp.StartSec].Page == nil &&
			sp.Start >= len(r.Sections[sp.StartSec].Lines) {
			sp.StartSec, sp.Start = sp.StartSec+1, 0
		}
		out.spans = append(out.spans, sp)
	}
	// A spacer line between messages.
	if r.Sections != nil {
		n := len(r.Sections)
		out.secs = append(r.Sections[:n:n], render.Section{Lines: []string{""}})
	} else {
		out.lines = append(out.lines[:len(out.lines):len(out.lines)], "")
	}
	return m.withEarlierLine(i, width, out)
}

// transcriptHints are the key hints under prompts in the transcript: the
// decision keys work in the prompt overlay, which ctrl+p (re)opens.
func (m *Model) transcriptHints() render.PromptHints {
	k := m.c.KM.Chat.OpenPrompt.Help().Key
	return render.PromptHints{
		Confirm: []render.KeyHint{{Keys: k, Action: "approve or deny", Kind: render.HintOther}},
		Review:  []render.KeyHint{{Keys: k, Action: "review the result", Kind: render.HintOther}},
	}
}

// blockAt returns the message block a span id names.
func (m *Model) blockAt(id string) (*reducer.Message, *reducer.Block) {
	k, ok := parseSpanID(id)
	if !ok {
		return nil, nil
	}
	msg := m.State.Message(k.MessageID)
	if msg == nil || k.Index < 0 || k.Index >= msg.Blocks.Len() {
		return msg, nil
	}
	return msg, msg.Blocks.At(k.Index)
}

// focusedBlock is the block of the focused span (nil when none).
func (m *Model) focusedBlock() *reducer.Block {
	sp := m.Transcript.FocusedSpan()
	if sp == nil {
		return nil
	}
	_, b := m.blockAt(sp.ID)
	return b
}

// copyText is what y copies for a block: its text through render.Sanitize,
// the sanitiser of the screen, so the clipboard (OSC 52) gets what the
// screen shows — never ESC, C0/C1 or bidi controls, which could run when
// pasted into a shell (a hidden "\x1b[201~" ends a bracketed paste).
func copyText(b *reducer.Block) string {
	return copySanitize(rawCopyText(b)) // tabs kept (copycode.go)
}

// rawCopyText is the server text y copies for a block.
func rawCopyText(b *reducer.Block) string {
	switch b.Kind {
	case reducer.KindText, reducer.KindThinking, reducer.KindSystemNotification:
		return b.Text()
	case reducer.KindToolCall:
		return toolCopy(b.Tool)
	case reducer.KindError:
		return b.Err.Message
	case reducer.KindInputRequest:
		return b.Input.Message
	case reducer.KindContentRef:
		return b.Ref.URI
	}
	return ""
}

func toolCopy(t *ahpwire.ToolCallState) string {
	var b strings.Builder
	if t.ToolInput != nil {
		b.WriteString(t.ToolInput.Text)
	}
	for _, c := range t.Content {
		switch {
		case c.Type == ahpwire.ContentText:
			b.WriteString("\n" + c.Text)
		case c.Type == ahpwire.ContentTerminal && c.Result != nil:
			b.WriteString("\n" + c.Result.Preview)
		case c.Type == ahpwire.ContentTerminal:
			b.WriteString("\n")
		}
	}
	return strings.TrimSpace(b.String())
}
