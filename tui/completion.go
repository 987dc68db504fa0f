package tui

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Composer completions: typing one of the host's trigger characters starts
// a token; after a short pause (debounce) the composer asks the host for
// `completions`; the popup filters the answer locally as the user keeps
// typing. A newer request cancels the older one; a late or failed answer
// is dropped silently, so a slow or broken host never costs a keystroke.
const (
	completionDebounce = 120 * time.Millisecond
	completionTimeout  = 3 * time.Second
	completionRows     = 6
)

// CompletionBackend is the optional part of the Backend that answers
// composer completions (*ahpclient.Client implements it).
type CompletionBackend interface {
	Completions(ctx context.Context, chat, text string, offset int) ([]ahpwire.CompletionItem, error)
}

// completionDueMsg fires when the debounce of request id is over.
type completionDueMsg struct {
	chat string
	id   uint64
}

// completionResultMsg carries the host's answer to request id.
type completionResultMsg struct {
	chat  string
	id    uint64
	items []ahpwire.CompletionItem
	err   error
}

// completer is the completion state of one chat's composer.
type completer struct {
	km       keymap.Completion
	chat     string
	triggers []string
	be       CompletionBackend // nil: completions off

	id     uint64             // generation; bumped whenever the token changes
	cancel context.CancelFunc // of the request in flight
	anchor int                // rune column in the line where the token starts
	line   int                // the composer line of the token
	token  string             // the token (trigger + query), "" when none
	items  []ahpwire.CompletionItem
	shown  []int // indices into items, best match first
	sel    int
	closed bool // esc closed the popup for this token
	// accepted are the items inserted since the last send; their
	// attachments go with the message that still contains their text.
	accepted []ahpwire.CompletionItem
	// client are ahptui's own slash commands (slashcmds.go), listed with
	// the host's; hostTriggers are the triggers the host asked for, and
	// hostItems its last answer.
	client       []ahpwire.CompletionItem
	hostTriggers []string
	hostItems    []ahpwire.CompletionItem
}

// newCompleter returns a completer; with no triggers or no backend support
// it never opens.
func newCompleter(km keymap.Completion, chat string, triggers []string, be Backend) completer {
	c := completer{km: km, chat: chat, triggers: triggers, hostTriggers: triggers, client: clientCompletionItems()}
	if cb, ok := be.(CompletionBackend); ok && len(triggers) > 0 {
		c.be = cb
	}
	if !slices.Contains(triggers, "/") {
		c.triggers = append(slices.Clone(triggers), "/")
	}
	return c
}

// Open reports whether the popup is visible.
func (c *completer) Open() bool { return c.token != "" && !c.closed && len(c.shown) > 0 }

// tokenAt finds the trigger token that ends at column col of line: the
// characters after the last whitespace, starting with a trigger character.
func tokenAt(line []rune, col int, triggers []string) (start int, tok string, ok bool) {
	if col > len(line) {
		return 0, "", false
	}
	start = col
	for start > 0 && !unicode.IsSpace(line[start-1]) {
		start--
	}
	tok = string(line[start:col])
	for _, t := range triggers {
		if t != "" && strings.HasPrefix(tok, t) {
			return start, tok, true
		}
	}
	// A command ("/demo slow") spans words: at the start of the message the
	// whole line up to the cursor is the token.
	if head := string(line[:col]); strings.HasPrefix(head, "/") && slices.Contains(triggers, "/") {
		return 0, head, true
	}
	return 0, "", false
}

// observe is called after every key the composer handled: it tracks the
// token under the cursor, filters locally and schedules a debounced
// request when the token changed.
func (c *completer) observe(comp *composer) tea.Cmd {
	if c.be == nil && len(c.client) == 0 {
		return nil
	}
	row, col := comp.Cursor()
	lines := strings.Split(comp.Value(), "\n")
	if row >= len(lines) {
		c.reset()
		return nil
	}
	start, tok, ok := tokenAt([]rune(lines[row]), col, c.triggers)
	if ok && row > 0 && start == 0 && strings.HasPrefix(tok, "/") && strings.Contains(tok, " ") {
		ok = false // commands only at the start of the message
	}
	if !ok {
		c.reset()
		return nil
	}
	if tok == c.token && start == c.anchor && row == c.line {
		return nil
	}
	if start != c.anchor || row != c.line || c.token == "" {
		c.items, c.hostItems, c.shown, c.sel, c.closed = nil, nil, nil, 0, false
	}
	c.anchor, c.line, c.token = start, row, tok
	c.items = c.merged()
	c.refilter()
	c.id++
	id, chat := c.id, c.chat
	return tea.Tick(completionDebounce, func(time.Time) tea.Msg { return completionDueMsg{chat: chat, id: id} })
}

// reset forgets the token and cancels any request in flight.
func (c *completer) reset() {
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	c.id++
	c.token, c.items, c.hostItems, c.shown, c.sel, c.closed = "", nil, nil, nil, 0, false
}

// due starts the request of generation id (a stale id does nothing). The
// request itself runs in the returned command, off the Update loop.
func (c *completer) due(parent context.Context, msg completionDueMsg, comp *composer) tea.Cmd {
	if c.be == nil || msg.id != c.id || c.token == "" || c.closed || !c.hostTriggered() {
		return nil
	}
	if c.cancel != nil {
		c.cancel()
	}
	ctx, cancel := context.WithTimeout(parent, completionTimeout)
	c.cancel = cancel
	text := comp.Value()
	row, col := comp.Cursor()
	offset := utf16Offset(text, row, col)
	be, chat, id := c.be, c.chat, msg.id
	return func() tea.Msg {
		defer cancel()
		items, err := be.Completions(ctx, chat, text, offset)
		return completionResultMsg{chat: chat, id: id, items: items, err: err}
	}
}

// result takes the host's answer; answers to stale requests and errors
// are dropped (an error closes the popup quietly).
func (c *completer) result(msg completionResultMsg) {
	if msg.id != c.id {
		return
	}
	c.cancel = nil
	if msg.err != nil {
		c.hostItems = nil
	} else {
		c.hostItems = msg.items
	}
	c.items = c.merged()
	c.refilter()
}

// refilter matches the query (the token without its trigger) against the
// items' labels and insert texts with fuzzy matching.
func (c *completer) refilter() {
	q := c.query()
	c.shown = c.shown[:0]
	if q == "" {
		for i := range c.items {
			c.shown = append(c.shown, i)
		}
	} else {
		for _, m := range fuzzy.FindFrom(q, itemSource(c.items)) {
			c.shown = append(c.shown, m.Index)
		}
		c.prefixFirst()
	}
	if c.sel >= len(c.shown) {
		c.sel = max(0, len(c.shown)-1)
	}
}

// query is the token without its trigger character.
func (c *completer) query() string {
	for _, t := range c.triggers {
		if strings.HasPrefix(c.token, t) {
			return c.token[len(t):]
		}
	}
	return c.token
}

// itemSource adapts items to fuzzy.Source (the insert text, e.g. "@a/b.go").
type itemSource []ahpwire.CompletionItem

func (s itemSource) String(i int) string { return s[i].InsertText }

func (s itemSource) Len() int { return len(s) }

// Update handles a key while the popup is open: it reports whether the key
// was used, and the item accepted (nil if none).
func (c *completer) Update(msg tea.KeyPressMsg) (used bool, accepted *ahpwire.CompletionItem) {
	switch {
	case key.Matches(msg, c.km.Next):
		c.sel = (c.sel + 1) % len(c.shown)
	case key.Matches(msg, c.km.Prev):
		c.sel = (c.sel + len(c.shown) - 1) % len(c.shown)
	case key.Matches(msg, c.km.Close):
		c.closed = true
	case key.Matches(msg, c.km.Accept, c.km.AcceptOrSend):
		it := c.items[c.shown[c.sel]]
		if key.Matches(msg, c.km.AcceptOrSend) && strings.TrimSpace(c.token) == it.InsertText {
			// Already complete: enter sends the message.
			c.reset()
			return false, nil
		}
		return true, &it
	default:
		return false, nil
	}
	return true, nil
}

// accept replaces the token in the composer with the item's insert text
// (and a space) and forgets the token.
func (c *completer) accept(comp *composer, it ahpwire.CompletionItem) {
	lines := strings.Split(comp.Value(), "\n")
	row, col := comp.Cursor()
	if row >= len(lines) {
		return
	}
	line := []rune(lines[row])
	start := min(c.anchor, len(line))
	col = max(start, min(col, len(line)))
	ins := []rune(it.InsertText + " ")
	lines[row] = string(line[:start]) + string(ins) + string(line[col:])
	comp.SetValueAt(strings.Join(lines, "\n"), row, start+len(ins))
	if !slices.ContainsFunc(c.client, func(ci ahpwire.CompletionItem) bool { return ci.InsertText == it.InsertText }) {
		c.accepted = append(c.accepted, it) // a client command has no attachment
	}
	c.reset()
}

// takeAttachments returns the attachments of the accepted items whose
// insert text is still in text (once each), and forgets them all.
func (c *completer) takeAttachments(text string) []ahpwire.MessageAttachment {
	var out []ahpwire.MessageAttachment
	seen := map[string]bool{}
	for _, it := range c.accepted {
		if it.InsertText == "" || seen[it.InsertText] || !strings.Contains(text, it.InsertText) {
			continue
		}
		seen[it.InsertText] = true
		out = append(out, it.Attachment)
	}
	c.accepted = nil
	return out
}

// View renders the popup: at most completionRows items with the selected
// one marked, indented to the token's column (so it sits under the cursor).
func (c *completer) View(st *uikit.Styles, width, indent int) []string {
	if !c.Open() {
		return nil
	}
	first := 0
	if c.sel >= completionRows {
		first = c.sel - completionRows + 1
	}
	pad := strings.Repeat(" ", max(0, min(indent, width-24)))
	var out []string
	for i := first; i < len(c.shown) && i < first+completionRows; i++ {
		it := c.items[c.shown[i]]
		label := uikit.OneLine(render.Sanitize(it.InsertText))
		if d := completionDetail(it); d != "" {
			label += "  " + st.Dialog.Muted.Render(d)
		}
		line := "  " + label
		if i == c.sel {
			line = st.Dialog.OptionSelected.Render("▸ ") + st.Dialog.OptionSelected.Render(uikit.OneLine(render.Sanitize(it.InsertText)))
			if d := completionDetail(it); d != "" {
				line += "  " + st.Dialog.Muted.Render(d)
			}
		}
		out = append(out, ansi.Truncate(pad+line, max(1, width), "…"))
	}
	if n := len(c.shown); n > completionRows {
		out = append(out, ansi.Truncate(pad+st.Dialog.Muted.Render("  "+strconv.Itoa(c.sel+1)+"/"+strconv.Itoa(n)+" · tab inserts · esc closes"), max(1, width), "…"))
	}
	return out
}

// completionDetail is the short description shown after an item.
func completionDetail(it ahpwire.CompletionItem) string {
	a := it.Attachment
	switch {
	case a.ModelRepresentation != "":
		return uikit.OneLine(render.Sanitize(a.ModelRepresentation))
	case a.DisplayKind != "":
		return uikit.OneLine(render.Sanitize(a.DisplayKind))
	}
	return ""
}

// utf16Offset is the cursor position (row, rune column) in text in UTF-16
// code units, as AHP counts offsets.
func utf16Offset(text string, row, col int) int {
	n := 0
	for i, l := range strings.Split(text, "\n") {
		rs := []rune(l)
		if i == row {
			return n + len(utf16.Encode(rs[:min(col, len(rs))]))
		}
		n += len(utf16.Encode(rs)) + 1
	}
	return n
}
