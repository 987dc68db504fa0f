package tui

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

// composer is the multi-line prompt editor with history and paste chips.
type composer struct {
	ta      textarea.Model
	km      keymap.Composer
	history []histEntry
	hIdx    int    // index into history while browsing; len(history) = not browsing
	saved   string // the draft the user had before browsing history
	pastes  map[int]string
	nPaste  int
	width   int // the width last given to SetWidth

	// gen is renewed by Update and SetStyles; vc is the last drawing,
	// shared by copies (viewcache.go).
	gen uint64
	vc  *composerView
}

// histEntry is a sent draft; its paste chips keep their content so that a
// recalled draft sends the real text again (never the chip).
type histEntry struct {
	text   string
	pastes map[int]string
}

// newComposer builds the composer. Text-editing keys of the textarea that
// collide with our bindings are removed (ctrl+t, ctrl+g, ctrl+n/ctrl+p) and
// its newline key becomes ours (ctrl+j, shift+enter).
func newComposer(km keymap.Composer, st *uikit.Styles) composer {
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
	c := composer{ta: ta, km: km, pastes: map[int]string{}, vc: &composerView{}}
	c.ta.Focus()
	return c
}

// textareaBindings lists the textarea's enabled bindings (for conflict tests).
func (c *composer) textareaBindings() []key.Binding {
	k := c.ta.KeyMap
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
func (c *composer) SetStyles(st *uikit.Styles) { uikit.StyleTextarea(&c.ta, st); c.touch() }

// composerMaxRows is the most rows the composer grows to; a small
// terminal gives it fewer (SetMaxRows).
const composerMaxRows = 10

// composerMaxContentRows bounds the draft (in wrapped rows). Without it the
// textarea would cap the draft at MaxHeight lines, which shrinks with the
// terminal.
const composerMaxContentRows = 1000

// SetWidth sets the editor width (at least 10 columns: in a narrower
// terminal the root view cuts the lines at the screen's edge).
func (c *composer) SetWidth(w int) {
	c.width = max(10, w)
	c.ta.SetWidth(c.width)
}

// SetMaxRows caps the rows the composer may grow to (at least 1, at most
// composerMaxRows), so that it always fits the screen; it scrolls inside.
func (c *composer) SetMaxRows(n int) {
	n = min(max(1, n), composerMaxRows)
	if c.ta.MaxHeight == n {
		return
	}
	c.ta.MaxHeight = n
	if c.width > 0 {
		c.ta.SetWidth(c.width) // re-fits the height
	}
}

// Height is the number of rows the composer occupies.
func (c *composer) Height() int { return c.ta.Height() }

// Focus gives the composer keyboard focus.
func (c *composer) Focus() tea.Cmd { return c.ta.Focus() }

// Blur removes keyboard focus.
func (c *composer) Blur() { c.ta.Blur() }

// Focused reports whether the composer has focus.
func (c *composer) Focused() bool { return c.ta.Focused() }

// Value returns the draft as shown (with paste chips).
func (c *composer) Value() string { return c.ta.Value() }

// Take returns the draft (paste chips expanded) and clears the composer,
// keeping the draft in the history, as sending does.
func (c *composer) Take() string {
	text := c.Expanded()
	if strings.TrimSpace(text) == "" {
		return ""
	}
	c.pushHistory(c.ta.Value())
	c.clear()
	c.hIdx = len(c.history)
	return text
}

// clear empties the draft and forgets its paste chips (the composer's one
// reset: Take and SetDraft use it).
func (c *composer) clear() {
	c.ta.Reset()
	c.pastes, c.nPaste = map[int]string{}, 0
}

// SetValue replaces the draft.
func (c *composer) SetValue(s string) { c.ta.SetValue(s); c.ta.MoveToEnd() }

// Expanded returns the draft with every paste chip replaced by its content.
func (c *composer) Expanded() string {
	return pasteChipRe.ReplaceAllStringFunc(c.ta.Value(), func(chip string) string {
		m := pasteChipRe.FindStringSubmatch(chip)
		n, _ := strconv.Atoi(m[1])
		if s, ok := c.pastes[n]; ok {
			return s
		}
		return chip
	})
}

// SetHistory replaces the drafts ↑ recalls (oldest first).
func (c *composer) SetHistory(texts []string) {
	c.history = c.history[:0]
	for _, t := range texts {
		c.history = append(c.history, histEntry{text: t})
	}
	c.hIdx = len(c.history)
}

func (c *composer) pushHistory(s string) {
	if s == "" || (len(c.history) > 0 && c.history[len(c.history)-1].text == s && len(c.pastes) == 0) {
		c.hIdx = len(c.history)
		return
	}
	c.history = append(c.history, histEntry{text: s, pastes: c.pastes})
	c.hIdx = len(c.history)
}

// recall shows history entry i with its paste chips.
func (c *composer) recall(i int) {
	c.hIdx = i
	c.pastes, c.nPaste = map[int]string{}, 0
	for n, p := range c.history[i].pastes {
		c.pastes[n] = p
		c.nPaste = max(c.nPaste, n)
	}
	c.SetValue(c.history[i].text)
}

// browsing reports whether the draft shows an unmodified history entry.
func (c *composer) browsing() bool {
	return c.hIdx < len(c.history) && c.ta.Value() == c.history[c.hIdx].text
}

// Update handles a message while the composer has focus.
func (c composer) Update(msg tea.Msg) (composer, tea.Cmd, composerAction) {
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
		c.ta, cmd = c.ta.Update(tea.PasteMsg{Content: text})
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
		case key.Matches(msg, c.km.HistoryPrev) && (c.ta.Value() == "" || c.browsing()):
			if c.hIdx > 0 {
				if !c.browsing() {
					c.saved = c.ta.Value()
				}
				c.recall(c.hIdx - 1)
			}
			return c, nil, nil
		case key.Matches(msg, c.km.HistoryNext) && c.browsing():
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
	c.ta, cmd = c.ta.Update(msg)
	return c, cmd, nil
}

// SetDraft replaces the draft with text from outside (the editor); text that
// the textarea would alter or truncate is kept intact as a paste chip.
func (c *composer) SetDraft(text string) {
	c.clear()
	if needsChip(text) {
		c.insertChip(text)
		return
	}
	c.SetValue(text)
}

func (c *composer) insertChip(text string) {
	c.nPaste++
	c.pastes[c.nPaste] = text
	c.ta.InsertString(fmt.Sprintf("[paste #%d: %d lines, %d bytes]", c.nPaste, max(1, render.LineCount(text)), len(text)))
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
func (c *composer) SetPlaceholder(s string) { c.ta.Placeholder = s; c.touch() }

// Cursor is the cursor's row and column (in runes) in the draft.
func (c *composer) Cursor() (row, col int) { return c.ta.Line(), c.ta.Column() }

// SetValueAt replaces the draft and puts the cursor at row, col.
func (c *composer) SetValueAt(s string, row, col int) {
	c.ta.SetValue(s)
	c.ta.MoveToBegin()
	for range row {
		c.ta.CursorDown()
	}
	c.ta.SetCursorColumn(col)
}
