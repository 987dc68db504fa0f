package chat

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Paste handling: a paste larger than these limits, or one holding tabs or
// carriage returns (which the textarea would rewrite), is kept verbatim
// aside and shown as a placeholder chip; sending expands it back, so large
// pastes arrive byte for byte.
const (
	pasteInlineMaxBytes = 4 << 10
	pasteInlineMaxLines = 40
)

var pasteChipRe = regexp.MustCompile(`\[paste #(\d+): \d+ lines?, \d+ bytes\]`)

// composerAction is an intent the composer hands to its parent.
type composerAction interface{ isComposerAction() }

// actionSend asks the parent to send text.
type actionSend struct{ Text string }

// actionOpenEditor asks the parent to open $EDITOR on the current draft.
type actionOpenEditor struct{ Draft string }

func (actionSend) isComposerAction() {}

func (actionOpenEditor) isComposerAction() {}

// Composer is the multi-line prompt editor with history and paste chips.
type Composer struct {
	Ta      textarea.Model
	km      keymap.Composer
	history []histEntry
	hIdx    int    // index into history while browsing; len(history) = not browsing
	saved   string // the draft the user had before browsing history
	pastes  map[int]string
	nPaste  int
	width   int // the width last given to SetWidth

	// gen is renewed by Update and SetStyles; vc is the last drawing,
	// shared by copies (composer_view.go).
	gen uint64
	vc  *composerView
}

// histEntry is a sent draft; its paste chips keep their content so that a
// recalled draft sends the real text again (never the chip).
type histEntry struct {
	text   string
	pastes map[int]string
}

// NewComposer builds the composer. Text-editing keys of the textarea that
// collide with our bindings are removed (ctrl+t, ctrl+g, ctrl+n/ctrl+p) and
// its newline key becomes ours (ctrl+j, shift+enter).
func NewComposer(km keymap.Composer, st *uikit.Styles) Composer {
	ta := textarea.New()
	ta.Placeholder = "Message… (enter send · ctrl+j newline · f1 help)"
	ta.ShowLineNumbers = false
	ta.Prompt = "┃ "
	ta.CharLimit = 0
	ta.MaxHeight = composerMaxRows
	ta.MaxContentHeight = composerMaxContentRows
	ta.MaxWidth = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.KeyMap.InsertNewline = km.Newline
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	ta.KeyMap.TransposeCharacterBackward.SetEnabled(false)
	ta.KeyMap.SelectAll.SetEnabled(false)
	ta.KeyMap.LineEnd = key.NewBinding(key.WithKeys("end", "ctrl+e"))
	ta.KeyMap.DeleteCharacterForward = key.NewBinding(key.WithKeys("delete"))
	ta.SetVirtualCursor(true)
	uikit.StyleTextarea(&ta, st)
	c := Composer{Ta: ta, km: km, pastes: map[int]string{}, vc: &composerView{}}
	c.Ta.Focus()
	return c
}

// TextareaBindings lists the textarea's enabled bindings (for conflict tests).
func (c *Composer) TextareaBindings() []key.Binding {
	k := c.Ta.KeyMap
	return []key.Binding{
		k.CharacterForward, k.CharacterBackward, k.WordForward, k.WordBackward,
		k.DeleteWordBackward, k.DeleteWordForward, k.DeleteAfterCursor, k.DeleteBeforeCursor,
		k.InsertNewline, k.DeleteCharacterBackward, k.DeleteCharacterForward, k.LineStart,
		k.LineEnd, k.Paste, k.InputBegin, k.InputEnd, k.CapitalizeWordForward,
		k.LowercaseWordForward, k.UppercaseWordForward, k.TransposeCharacterBackward,
		k.SelectCharacterForward, k.SelectCharacterBackward, k.SelectWordForward,
		k.SelectWordBackward, k.SelectLineUp, k.SelectLineDown, k.SelectAll, k.CopySelection,
	}
}

// SetStyles re-colours the editor after a theme change.
func (c *Composer) SetStyles(st *uikit.Styles) { uikit.StyleTextarea(&c.Ta, st); c.touch() }

// composerMaxRows is the most rows the composer grows to; a small
// terminal gives it fewer (SetMaxRows).
const composerMaxRows = 10

// composerMaxContentRows bounds the draft (in wrapped rows). Without it the
// textarea would cap the draft at MaxHeight lines, which shrinks with the
// terminal.
const composerMaxContentRows = 1000

// SetWidth sets the editor width (at least 10 columns: in a narrower
// terminal the root view cuts the lines at the screen's edge).
func (c *Composer) SetWidth(w int) {
	c.width = max(10, w)
	c.Ta.SetWidth(c.width)
}

// SetMaxRows caps the rows the composer may grow to (at least 1, at most
// composerMaxRows), so that it always fits the screen; it scrolls inside.
func (c *Composer) SetMaxRows(n int) {
	n = min(max(1, n), composerMaxRows)
	if c.Ta.MaxHeight == n {
		return
	}
	c.Ta.MaxHeight = n
	if c.width > 0 {
		c.Ta.SetWidth(c.width) // re-fits the height
	}
}

// Height is the number of rows the composer occupies.
func (c *Composer) Height() int { return c.Ta.Height() }

// Focus gives the composer keyboard focus.
func (c *Composer) Focus() tea.Cmd { return c.Ta.Focus() }

// Blur removes keyboard focus.
func (c *Composer) Blur() { c.Ta.Blur() }

// Focused reports whether the composer has focus.
func (c *Composer) Focused() bool { return c.Ta.Focused() }

// Value returns the draft as shown (with paste chips).
func (c *Composer) Value() string { return c.Ta.Value() }

// Take returns the draft (paste chips expanded) and clears the composer,
// keeping the draft in the history, as sending does.
func (c *Composer) Take() string {
	text := c.Expanded()
	if strings.TrimSpace(text) == "" {
		return ""
	}
	c.pushHistory(c.Ta.Value())
	c.clear()
	c.hIdx = len(c.history)
	return text
}

// clear empties the draft and forgets its paste chips (the composer's one
// reset: Take and SetDraft use it).
func (c *Composer) clear() {
	c.Ta.Reset()
	c.pastes, c.nPaste = map[int]string{}, 0
}

// SetValue replaces the draft.
func (c *Composer) SetValue(s string) { c.Ta.SetValue(s); c.Ta.MoveToEnd() }

// Expanded returns the draft with every paste chip replaced by its content.
func (c *Composer) Expanded() string {
	return pasteChipRe.ReplaceAllStringFunc(c.Ta.Value(), func(chip string) string {
		m := pasteChipRe.FindStringSubmatch(chip)
		n, _ := strconv.Atoi(m[1])
		if s, ok := c.pastes[n]; ok {
			return s
		}
		return chip
	})
}

// SetHistory replaces the drafts ↑ recalls (oldest first).
func (c *Composer) SetHistory(texts []string) {
	c.history = c.history[:0]
	for _, t := range texts {
		c.history = append(c.history, histEntry{text: t})
	}
	c.hIdx = len(c.history)
}

func (c *Composer) pushHistory(s string) {
	if s == "" || (len(c.history) > 0 && c.history[len(c.history)-1].text == s && len(c.pastes) == 0) {
		c.hIdx = len(c.history)
		return
	}
	c.history = append(c.history, histEntry{text: s, pastes: c.pastes})
	c.hIdx = len(c.history)
}

// recall shows history entry i with its paste chips.
func (c *Composer) recall(i int) {
	c.hIdx = i
	c.pastes, c.nPaste = map[int]string{}, 0
	for n, p := range c.history[i].pastes {
		c.pastes[n] = p
		c.nPaste = max(c.nPaste, n)
	}
	c.SetValue(c.history[i].text)
}

// Browsing reports whether the draft shows an unmodified history entry.
func (c *Composer) Browsing() bool {
	return c.hIdx < len(c.history) && c.Ta.Value() == c.history[c.hIdx].text
}

// Update handles a message while the composer has focus.
func (c Composer) Update(msg tea.Msg) (Composer, tea.Cmd, composerAction) {
	c.touch()
	switch msg := msg.(type) {
	case tea.PasteMsg:
		// Terminals send the line breaks of a paste as CR (xterm, tmux):
		// give them back their LF so the agent gets the text as copied.
		text := pasteNewlines(msg.Content)
		if needsChip(text) {
			c.insertChip(text)
			return c, nil, nil
		}
		var cmd tea.Cmd
		c.Ta, cmd = c.Ta.Update(tea.PasteMsg{Content: text})
		return c, cmd, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, c.km.Send):
			if text := c.Take(); text != "" {
				return c, nil, actionSend{Text: text}
			}
			return c, nil, nil
		case key.Matches(msg, c.km.Editor):
			return c, nil, actionOpenEditor{Draft: c.Expanded()}
		case key.Matches(msg, c.km.HistoryPrev) && (c.Ta.Value() == "" || c.Browsing()):
			if c.hIdx > 0 {
				if !c.Browsing() {
					c.saved = c.Ta.Value()
				}
				c.recall(c.hIdx - 1)
			}
			return c, nil, nil
		case key.Matches(msg, c.km.HistoryNext) && c.Browsing():
			if c.hIdx+1 < len(c.history) {
				c.recall(c.hIdx + 1)
			} else {
				c.hIdx = len(c.history)
				c.pastes = map[int]string{}
				c.SetValue(c.saved)
			}
			return c, nil, nil
		}
	}
	var cmd tea.Cmd
	c.Ta, cmd = c.Ta.Update(msg)
	return c, cmd, nil
}

// SetDraft replaces the draft with text from outside (the editor); text that
// the textarea would alter or truncate is kept intact as a paste chip.
func (c *Composer) SetDraft(text string) {
	c.clear()
	if needsChip(text) {
		c.insertChip(text)
		return
	}
	c.SetValue(text)
}

func (c *Composer) insertChip(text string) {
	c.nPaste++
	c.pastes[c.nPaste] = text
	c.Ta.InsertString(fmt.Sprintf("[paste #%d: %d lines, %d bytes]", c.nPaste, max(1, render.LineCount(text)), len(text)))
}

// pasteNewlines turns the CR and CRLF line breaks a terminal sends for a
// paste into LF.
func pasteNewlines(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// needsChip reports whether a paste must be kept aside to stay intact.
func needsChip(s string) bool {
	return len(s) > pasteInlineMaxBytes || strings.Count(s, "\n") >= pasteInlineMaxLines ||
		strings.ContainsAny(s, "\t\r")
}

// SetPlaceholder sets the text shown while the draft is empty.
func (c *Composer) SetPlaceholder(s string) { c.Ta.Placeholder = s; c.touch() }

// Cursor is the cursor's row and column (in runes) in the draft.
func (c *Composer) Cursor() (row, col int) { return c.Ta.Line(), c.Ta.Column() }

// SetValueAt replaces the draft and puts the cursor at row, col.
func (c *Composer) SetValueAt(s string, row, col int) {
	c.Ta.SetValue(s)
	c.Ta.MoveToBegin()
	for range row {
		c.Ta.CursorDown()
	}
	c.Ta.SetCursorColumn(col)
}

// SeedHistory gives a new composer the shared prompt history (oldest
// first).
func (c *Composer) SeedHistory(h *app.PromptHistory) {
	if h != nil {
		c.SetHistory(h.Entries)
	}
}
