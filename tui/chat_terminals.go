package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// viewOptsBase are the render options of the transcript: the global views,
// expanded blocks, and the live terminals and fetched contents.
func (m *chatModel) viewOptsBase() render.ViewOpts {
	v := render.ViewOpts{Thinking: m.thinking.mode(), Expanded: m.expanded, Now: m.c.now(), Hints: m.transcriptHints(), WorkDirs: m.workDirs}
	m.c.ext.viewOpts(&v)
	return v
}

// setWorkDirs keeps the session's working directories, which name the
// files of edits (render.ViewOpts.WorkDirs); the transcript is drawn anew
// when they change.
func (m *chatModel) setWorkDirs(dirs []string) {
	if slices.Equal(dirs, m.workDirs) {
		return
	}
	m.workDirs = dirs
	m.tr.invalidateAll()
}

// termStep is how many lines { and } scroll an expanded terminal.
const termStep = 5

// focusedTerminal returns the URI of the live terminal of the focused tool
// block ("" when there is none).
func (m *chatModel) focusedTerminal() string {
	b := m.focusedBlock()
	if b == nil || b.Kind != reducer.KindToolCall || b.Tool == nil {
		return ""
	}
	for _, c := range b.Tool.Content { // in order: the first live one, every time
		if c.Type != ahpwire.ContentTerminal {
			continue
		}
		if t := m.c.ext.terms[c.Resource]; t != nil && t.ready {
			return c.Resource
		}
	}
	return ""
}

// scrollTerminal scrolls the focused terminal by n lines (n > 0: back in
// its output); it expands the tool block first so the window shows.
func (m *chatModel) scrollTerminal(n int) tea.Cmd {
	uri := m.focusedTerminal()
	if uri == "" {
		return uikit.Notice("no terminal in the focused block — select one with [ or ]", false)
	}
	if k, ok := parseSpanID(m.tr.FocusedSpan().ID); ok && !m.expanded[k] {
		m.expanded[k] = true
	}
	top := max(0, m.c.ext.terms[uri].lt.LineCount()-render.TermExpandedLines)
	m.c.ext.scroll[uri] = min(top, max(0, m.c.ext.scroll[uri]+n))
	m.tr.invalidate(m.tr.FocusedItem())
	m.tr.layout()
	return nil
}

// terminalCopy is the text of the focused block's live terminal ("" when
// there is none): what the emulator shows, as plain sanitised text.
func (m *chatModel) terminalCopy() string {
	if uri := m.focusedTerminal(); uri != "" {
		return render.Sanitize(m.c.ext.terms[uri].lt.Text())
	}
	return ""
}
