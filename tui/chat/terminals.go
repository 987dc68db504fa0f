package chat

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// ViewOptsBase are the render options of the transcript: the global views,
// expanded blocks, and the live terminals and fetched contents.
func (m *Model) ViewOptsBase() render.ViewOpts {
	v := render.ViewOpts{Thinking: m.Thinking.mode(), Expanded: m.expanded, Now: m.c.Now(), Hints: m.transcriptHints(), WorkDirs: m.WorkDirs}
	m.c.Channels.ViewOpts(&v)
	return v
}

// SetWorkDirs keeps the session's working directories, which name the
// files of edits (render.ViewOpts.WorkDirs); the transcript is drawn anew
// when they change.
func (m *Model) SetWorkDirs(dirs []string) {
	if slices.Equal(dirs, m.WorkDirs) {
		return
	}
	m.WorkDirs = dirs
	m.Transcript.InvalidateAll()
}

// TermStep is how many lines { and } scroll an expanded terminal.
const TermStep = 5

// FocusedTerminal returns the URI of the live terminal of the focused tool
// block ("" when there is none).
func (m *Model) FocusedTerminal() string {
	b := m.focusedBlock()
	if b == nil || b.Kind != reducer.KindToolCall || b.Tool == nil {
		return ""
	}
	for _, c := range b.Tool.Content { // in order: the first live one, every time
		if c.Type != ahpwire.ContentTerminal {
			continue
		}
		if t := m.c.Channels.Terms[c.Resource]; t != nil && t.Ready {
			return c.Resource
		}
	}
	return ""
}

// scrollTerminal scrolls the focused terminal by n lines (n > 0: back in
// its output); it expands the tool block first so the window shows.
func (m *Model) scrollTerminal(n int) tea.Cmd {
	uri := m.FocusedTerminal()
	if uri == "" {
		return uikit.Notice("no terminal in the focused block — select one with [ or ]", false)
	}
	if k, ok := parseSpanID(m.Transcript.FocusedSpan().ID); ok && !m.expanded[k] {
		m.expanded[k] = true
	}
	top := max(0, m.c.Channels.Terms[uri].Live.LineCount()-render.TermExpandedLines)
	m.c.Channels.Scroll[uri] = min(top, max(0, m.c.Channels.Scroll[uri]+n))
	m.Transcript.Invalidate(m.Transcript.FocusedItem())
	m.Transcript.Layout()
	return nil
}

// TerminalCopy is the text of the focused block's live terminal ("" when
// there is none): what the emulator shows, as plain sanitised text.
func (m *Model) TerminalCopy() string {
	if uri := m.FocusedTerminal(); uri != "" {
		return render.Sanitize(m.c.Channels.Terms[uri].Live.Text())
	}
	return ""
}
