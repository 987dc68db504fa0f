package chat

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
	"github.com/ahptui/ahptui/tui/app"
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

// CompletionDueMsg fires when the debounce of request id is over.
type CompletionDueMsg struct {
	Chat string
	ID   uint64
}

// CompletionResultMsg carries the host's answer to request id.
type CompletionResultMsg struct {
	chat  string
	id    uint64
	items []ahpwire.CompletionItem
	Err   error
}

// Completer is the completion state of one chat's composer.
type Completer struct {
	km       keymap.Completion
	chat     string
	triggers []string
	be       CompletionBackend // nil: completions off

	ID     uint64             // generation; bumped whenever the token changes
	cancel context.CancelFunc // of the request in flight
	anchor int                // rune column in the line where the token starts
	line   int                // the composer line of the token
	Token  string             // the token (trigger + query), "" when none
	Items  []ahpwire.CompletionItem
	Shown  []int // indices into items, best match first
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

// NewCompleter returns a completer; with no triggers or no backend support
// it never opens.
func NewCompleter(km keymap.Completion, chat string, triggers []string, be app.Backend) Completer {
	c := Completer{km: km, chat: chat, triggers: triggers, hostTriggers: triggers, client: clientCompletionItems()}
	if cb, ok := be.(CompletionBackend); ok && len(triggers) > 0 {
		c.be = cb
	}
	if !slices.Contains(triggers, "/") {
		c.triggers = append(slices.Clone(triggers), "/")
	}
	return c
}

// Open reports whether the popup is visible.
func (c *Completer) Open() bool { return c.Token != "" && !c.closed && len(c.Shown) > 0 }

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

// Observe is called after every key the composer handled: it tracks the
// token under the cursor, filters locally and schedules a debounced
// request when the token changed.
func (c *Completer) Observe(comp *Composer) tea.Cmd {
	if c.be == nil && len(c.client) == 0 {
		return nil
	}
	row, col := comp.Cursor()
	lines := strings.Split(comp.Value(), "\n")
	if row >= len(lines) {
		c.Reset()
		return nil
	}
	start, tok, ok := tokenAt([]rune(lines[row]), col, c.triggers)
	if ok && row > 0 && start == 0 && strings.HasPrefix(tok, "/") && strings.Contains(tok, " ") {
		ok = false // commands only at the start of the message
	}
	if !ok {
		c.Reset()
		return nil
	}
	if tok == c.Token && start == c.anchor && row == c.line {
		return nil
	}
	if start != c.anchor || row != c.line || c.Token == "" {
		c.Items, c.hostItems, c.Shown, c.sel, c.closed = nil, nil, nil, 0, false
	}
	c.anchor, c.line, c.Token = start, row, tok
	c.Items = c.merged()
	c.Refilter()
	c.ID++
	id, chat := c.ID, c.chat
	return tea.Tick(completionDebounce, func(time.Time) tea.Msg { return CompletionDueMsg{Chat: chat, ID: id} })
}

// Reset forgets the token and cancels any request in flight.
func (c *Completer) Reset() {
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	c.ID++
	c.Token, c.Items, c.hostItems, c.Shown, c.sel, c.closed = "", nil, nil, nil, 0, false
}

// Due starts the request of generation id (a stale id does nothing). The
// request itself runs in the returned command, off the Update loop.
func (c *Completer) Due(parent context.Context, msg CompletionDueMsg, comp *Composer) tea.Cmd {
	if c.be == nil || msg.ID != c.ID || c.Token == "" || c.closed || !c.hostTriggered() {
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
	be, chat, id := c.be, c.chat, msg.ID
	return func() tea.Msg {
		defer cancel()
		items, err := be.Completions(ctx, chat, text, offset)
		return CompletionResultMsg{chat: chat, id: id, items: items, Err: err}
	}
}

// Result takes the host's answer; answers to stale requests and errors
// are dropped (an error closes the popup quietly).
func (c *Completer) Result(msg CompletionResultMsg) {
	if msg.id != c.ID {
		return
	}
	c.cancel = nil
	if msg.Err != nil {
		c.hostItems = nil
	} else {
		c.hostItems = msg.items
	}
	c.Items = c.merged()
	c.Refilter()
}

// Refilter matches the query (the token without its trigger) against the
// items' labels and insert texts with fuzzy matching.
func (c *Completer) Refilter() {
	q := c.query()
	c.Shown = c.Shown[:0]
	if q == "" {
		for i := range c.Items {
			c.Shown = append(c.Shown, i)
		}
	} else {
		for _, m := range fuzzy.FindFrom(q, itemSource(c.Items)) {
			c.Shown = append(c.Shown, m.Index)
		}
		c.prefixFirst()
	}
	if c.sel >= len(c.Shown) {
		c.sel = max(0, len(c.Shown)-1)
	}
}

// query is the token without its trigger character.
func (c *Completer) query() string {
	for _, t := range c.triggers {
		if strings.HasPrefix(c.Token, t) {
			return c.Token[len(t):]
		}
	}
	return c.Token
}

// itemSource adapts items to fuzzy.Source (the insert text, e.g. "@a/b.go").
type itemSource []ahpwire.CompletionItem

func (s itemSource) String(i int) string { return s[i].InsertText }

func (s itemSource) Len() int { return len(s) }

// Update handles a key while the popup is open: it reports whether the key
// was used, and the item accepted (nil if none).
func (c *Completer) Update(msg tea.KeyPressMsg) (used bool, accepted *ahpwire.CompletionItem) {
	switch {
	case key.Matches(msg, c.km.Next):
		c.sel = (c.sel + 1) % len(c.Shown)
	case key.Matches(msg, c.km.Prev):
		c.sel = (c.sel + len(c.Shown) - 1) % len(c.Shown)
	case key.Matches(msg, c.km.Close):
		c.closed = true
	case key.Matches(msg, c.km.Accept, c.km.AcceptOrSend):
		it := c.Items[c.Shown[c.sel]]
		if key.Matches(msg, c.km.AcceptOrSend) && strings.TrimSpace(c.Token) == it.InsertText {
			// Already complete: enter sends the message.
			c.Reset()
			return false, nil
		}
		return true, &it
	default:
		return false, nil
	}
	return true, nil
}

// Accept replaces the token in the composer with the item's insert text
// (and a space) and forgets the token.
func (c *Completer) Accept(comp *Composer, it ahpwire.CompletionItem) {
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
	c.Reset()
}

// TakeAttachments returns the attachments of the accepted items whose
// insert text is still in text (once each), and forgets them all.
func (c *Completer) TakeAttachments(text string) []ahpwire.MessageAttachment {
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
func (c *Completer) View(st *uikit.Styles, width, indent int) []string {
	if !c.Open() {
		return nil
	}
	first := 0
	if c.sel >= completionRows {
		first = c.sel - completionRows + 1
	}
	pad := strings.Repeat(" ", max(0, min(indent, width-24)))
	var out []string
	for i := first; i < len(c.Shown) && i < first+completionRows; i++ {
		it := c.Items[c.Shown[i]]
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
	if n := len(c.Shown); n > completionRows {
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
