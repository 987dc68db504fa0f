package tui

import (
	"cmp"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// The names of the shared UI kit (tui/uikit) the root model uses; the
// dialogs (tui/dialog) use the kit directly.
type (
	// Styles are the TUI's chrome styles (uikit.Styles).
	Styles    = uikit.Styles
	overlay   = uikit.Overlay
	noticeMsg = uikit.NoticeMsg
)

const resultClose = uikit.ResultClose

func emit(m tea.Msg) tea.Cmd                 { return uikit.Emit(m) }
func notice(text string, isErr bool) tea.Cmd { return uikit.Notice(text, isErr) }
func newStyles(rs render.Styles) Styles      { return uikit.NewStyles(rs) }
func newTextInput(st *Styles) textinput.Model {
	return uikit.NewTextInput(st)
}

// plural formats "1 file", "2 files" (uikit.Plural).
func plural(n int, word string) string { return uikit.Plural(n, word) }

// firstNonEmpty is the first of ss that is not empty.
func firstNonEmpty(ss ...string) string { return cmp.Or(ss...) }
