package dialog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// InputForm answers an input request (elicitation): one field per question.
// It never dispatches: the outcome leaves as an InputDecisionMsg intent.
type InputForm struct {
	km     keymap.Form
	turnID string
	req    *ahpwire.ChatInputRequest
	fields []formField
	cur    int
	err    string
	armed  string // ahpwire.InputDecline or InputCancel after its first key press
}

// InputDecisionMsg is the user's answer to an input request.
type InputDecisionMsg struct {
	TurnID    string
	RequestID string
	Response  string // ahpwire.InputAccept, InputDecline or InputCancel
	Answers   map[string]ahpwire.ChatInputAnswer
}

// RequestID is the input request the form answers.
func (f *InputForm) RequestID() string { return f.req.ID }

// Current is the index of the focused question.
func (f *InputForm) Current() int { return f.cur }

// formField is the editing state of one question.
type formField struct {
	q        ahpwire.ChatInputQuestion
	text     textinput.Model // text, number, integer; free-form for selects
	boolVal  bool
	cursor   int          // select: highlighted option (len(options) = free-form row)
	selected map[int]bool // select: chosen options
	// def is the default typed answer, shown as the placeholder and
	// submitted when the text input is left empty (typing replaces it).
	def string
}

// NewInputForm answers input request req of turn turnID.
func NewInputForm(km keymap.Form, turnID string, req *ahpwire.ChatInputRequest, st *uikit.Styles) *InputForm {
	f := &InputForm{km: km, turnID: turnID, req: req}
	for _, q := range req.Questions {
		ti := uikit.NewTextInput(st)
		ti.Prompt = "› "
		ff := formField{q: q, text: ti, selected: map[int]bool{}}
		ff.applyDefault(req.Answers[q.ID], q.DefaultAnswer())
		f.fields = append(f.fields, ff)
	}
	f.focus(0)
	return f
}

func (ff *formField) applyDefault(draft ahpwire.ChatInputAnswer, def *ahpwire.ChatInputAnswerValue) {
	// A draft is the user's own text and is restored for editing; a
	// default is only offered: it shows as the placeholder, the first
	// typed character replaces it and an empty field submits it.
	v, freeform, setText := def, []string(nil), ff.setDefault
	if draft.State == ahpwire.AnswerDraft || draft.State == ahpwire.AnswerSubmitted {
		v, freeform, setText = draft.Value, draft.Freeform(), ff.text.SetValue
	}
	if v == nil {
		return
	}
	switch v.Kind {
	case ahpwire.AnswerValueText:
		setText(v.Text())
	case ahpwire.AnswerValueNumber:
		setText(strconv.FormatFloat(v.Number(), 'f', -1, 64))
	case ahpwire.AnswerValueBoolean:
		ff.boolVal = v.Bool()
	case ahpwire.AnswerValueSelected, ahpwire.AnswerValueSelectedMany:
		for _, id := range v.Selected() {
			for i, o := range ff.q.Options {
				if o.ID == id {
					ff.selected[i] = true
					ff.cursor = i
				}
			}
		}
		if len(freeform) > 0 {
			setText(strings.Join(freeform, ", "))
		}
	}
}

// setDefault offers s as the field's default answer.
func (ff *formField) setDefault(s string) {
	ff.def = s
	ff.text.Placeholder = uikit.OneLine(render.Sanitize(s)) // host text: never raw to the terminal
}

// value is the typed text, or the default when nothing was typed.
func (ff *formField) value() string {
	if v := ff.text.Value(); strings.TrimSpace(v) != "" || ff.def == "" {
		return v
	}
	return ff.def
}

// usesText reports whether the field's text input is active.
func (ff *formField) usesText() bool {
	switch ff.q.Kind {
	case "text", "number", "integer":
		return true
	case "single-select", "multi-select":
		return allowFreeform(&ff.q) && ff.cursor == len(ff.q.Options)
	}
	return false
}

func (f *InputForm) focus(i int) {
	for j := range f.fields {
		f.fields[j].text.Blur()
	}
	if len(f.fields) == 0 {
		return
	}
	f.cur = (i + len(f.fields)) % len(f.fields)
	if f.fields[f.cur].usesText() {
		f.fields[f.cur].text.Focus()
	}
}

func (f *InputForm) finish(response string, answers map[string]ahpwire.ChatInputAnswer) tea.Cmd {
	d := InputDecisionMsg{TurnID: f.turnID, RequestID: f.req.ID, Response: response, Answers: answers}
	return func() tea.Msg { return d }
}

// Update handles form keys; typing goes to the focused text input.
func (f *InputForm) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f.updateText(msg)
	}
	// Decline and cancel throw the answers away: they ask for a second
	// press (ctrl+d also deletes a character in many editors).
	armed := f.armed
	if armed != "" {
		f.armed, f.err = "", ""
	}
	switch {
	case key.Matches(k, f.km.Later):
		return f, nil, uikit.ResultClose
	case key.Matches(k, f.km.Cancel):
		if armed == ahpwire.InputCancel {
			return f, f.finish(ahpwire.InputCancel, nil), uikit.ResultClose
		}
		f.armed = ahpwire.InputCancel
		f.err = "press " + f.km.Cancel.Help().Key + " again to cancel the request (the agent gets no answers)"
	case key.Matches(k, f.km.Decline):
		if armed == ahpwire.InputDecline {
			return f, f.finish(ahpwire.InputDecline, nil), uikit.ResultClose
		}
		f.armed = ahpwire.InputDecline
		f.err = "press " + f.km.Decline.Help().Key + " again to decline to answer"
	case key.Matches(k, f.km.NextField):
		f.focus(f.cur + 1)
	case key.Matches(k, f.km.PrevField):
		f.focus(f.cur - 1)
	case key.Matches(k, f.km.Submit):
		if len(f.fields) > 0 && f.cur < len(f.fields)-1 {
			if ff := &f.fields[f.cur]; ff.q.Kind == "single-select" && !ff.usesText() {
				ff.selected = map[int]bool{ff.cursor: true}
			}
			f.focus(f.cur + 1)
			return f, nil, uikit.ResultNone
		}
		if ff := f.field(); ff != nil && ff.q.Kind == "single-select" && !ff.usesText() && len(ff.selected) == 0 {
			ff.selected = map[int]bool{ff.cursor: true}
		}
		answers, bad, err := f.answers()
		if err != "" {
			f.err = err
			f.focus(bad)
			return f, nil, uikit.ResultNone
		}
		return f, f.finish(ahpwire.InputAccept, answers), uikit.ResultClose
	case f.field() != nil && isSelect(f.field().q.Kind) && key.Matches(k, f.km.Up, f.km.Down):
		ff := f.field()
		n := len(ff.q.Options)
		if allowFreeform(&ff.q) {
			n++
		}
		if key.Matches(k, f.km.Up) {
			ff.cursor = (ff.cursor - 1 + n) % n
		} else {
			ff.cursor = (ff.cursor + 1) % n
		}
		if ff.usesText() {
			ff.text.Focus()
		} else {
			ff.text.Blur()
		}
	case f.field() != nil && key.Matches(k, f.km.Toggle) && !f.field().usesText():
		ff := f.field()
		switch ff.q.Kind {
		case "boolean":
			ff.boolVal = !ff.boolVal
		case "single-select":
			ff.selected = map[int]bool{ff.cursor: true}
		case "multi-select":
			ff.selected[ff.cursor] = !ff.selected[ff.cursor]
		}
	case f.field() != nil && f.field().q.Kind == "boolean" && (k.String() == "y" || k.String() == "n"):
		f.field().boolVal = k.String() == "y"
	default:
		return f.updateText(msg)
	}
	return f, nil, uikit.ResultNone
}

func (f *InputForm) updateText(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	ff := f.field()
	if ff == nil || !ff.usesText() {
		return f, nil, uikit.ResultNone
	}
	var cmd tea.Cmd
	ff.text, cmd = ff.text.Update(msg)
	f.err = ""
	return f, cmd, uikit.ResultNone
}

func (f *InputForm) field() *formField {
	if f.cur < 0 || f.cur >= len(f.fields) {
		return nil
	}
	return &f.fields[f.cur]
}

func isSelect(kind string) bool { return kind == "single-select" || kind == "multi-select" }

// answers validates every field and builds the submitted answers; on error
// it returns the index of the offending field and the message.
func (f *InputForm) answers() (map[string]ahpwire.ChatInputAnswer, int, string) {
	out := map[string]ahpwire.ChatInputAnswer{}
	for i := range f.fields {
		ff := &f.fields[i]
		q := ff.q
		a := ahpwire.ChatInputAnswer{State: ahpwire.AnswerSubmitted}
		text := strings.TrimSpace(ff.value())
		empty := false
		switch q.Kind {
		case "number", "integer":
			if text == "" {
				empty = true
				break
			}
			n, err := strconv.ParseFloat(text, 64)
			if err != nil || (q.Kind == "integer" && n != float64(int64(n))) {
				return nil, i, fmt.Sprintf("%s: %q is not a valid %s", questionLabel(q), text, q.Kind)
			}
			if (q.Min != nil && n < *q.Min) || (q.Max != nil && n > *q.Max) {
				return nil, i, fmt.Sprintf("%s: %v is out of range", questionLabel(q), n)
			}
			a.Value = ahpwire.Ptr(ahpwire.NumberAnswer(n))
		case "boolean":
			a.Value = ahpwire.Ptr(ahpwire.BoolAnswer(ff.boolVal))
		case "single-select", "multi-select":
			var sel, freeform []string
			for j, o := range q.Options {
				if ff.selected[j] {
					sel = append(sel, o.ID)
				}
			}
			if allowFreeform(&q) && text != "" {
				freeform = []string{text}
			}
			a.Value = selectAnswer(q.Kind == "multi-select", sel, freeform)
			empty = len(sel) == 0 && len(freeform) == 0
		default: // text and unknown kinds
			a.Value = ahpwire.Ptr(ahpwire.TextAnswer(ff.value()))
			empty = text == ""
		}
		if empty {
			if q.IsRequired() {
				return nil, i, questionLabel(q) + " is required"
			}
			out[q.ID] = ahpwire.ChatInputAnswer{State: ahpwire.AnswerSkipped}
			continue
		}
		out[q.ID] = a
	}
	return out, -1, ""
}

// selectAnswer builds the value of a select question: the chosen option
// (JSON null when only typed values were given) or the chosen options, and
// the typed values.
func selectAnswer(many bool, sel, freeform []string) *ahpwire.ChatInputAnswerValue {
	var v ahpwire.ChatInputAnswerValue
	switch {
	case many:
		v = ahpwire.SelectedManyAnswer(sel)
	case len(sel) > 0:
		v = ahpwire.SelectedAnswer(sel[0])
	default:
		v = ahpwire.SelectedAnswer("")
		v.Value = json.RawMessage(`null`)
	}
	v.FreeformValues = freeform
	return &v
}

// allowFreeform reports whether a select question takes typed answers.
func allowFreeform(q *ahpwire.ChatInputQuestion) bool {
	return q.AllowFreeformInput != nil && *q.AllowFreeformInput
}

func questionLabel(q ahpwire.ChatInputQuestion) string {
	return render.Sanitize(cmp.Or(q.Title, q.Message, q.ID))
}

// View draws the form: the header, the questions (scrolled so the focused
// one is visible) and the key hints, which always stay on screen.
func (f *InputForm) View(st *uikit.Styles, width, height int) string {
	inner := max(20, min(width, 100)-4)
	head := []string{st.Dialog.Title.Render("The agent asks")}
	if f.req.Message != "" {
		head = append(head, wrapLines(f.req.Message, inner)...)
	}
	if f.req.URL != "" {
		head = append(head, st.Dialog.Muted.Render("open: "+render.Sanitize(f.req.URL)))
	}
	var foot []string
	if f.err != "" {
		foot = append(foot, st.Dialog.Error.Render(f.err))
	}
	foot = append(foot, uikit.KeyHints(st, inner, "enter", "next/submit", "tab", "field", "space", "toggle",
		"ctrl+d", "decline", "ctrl+x", "cancel", "esc", "later")...)

	var body []string
	starts := make([]int, len(f.fields)) // first body line of each field
	curStart, curEnd := 0, 0
	for i := range f.fields {
		starts[i] = len(body)
		if i == f.cur {
			curStart = len(body)
		}
		body = append(body, "")
		body = append(body, f.fieldLines(st, i, inner)...)
		if i == f.cur {
			curEnd = len(body)
		}
	}
	avail := max(1, height-2-len(head)-len(foot)-1)
	if len(body) > avail {
		// Too tall: scroll so the focused field shows, and say what is
		// hidden above and below (a line of the room each).
		window := func(rows int) (int, int) {
			rows = max(1, rows)
			off := min(curStart, len(body)-rows)
			if curEnd-off > rows {
				off = curEnd - rows
			}
			off = max(0, off)
			return off, min(len(body), off+rows)
		}
		off, end := window(avail - 1)
		if off > 0 {
			off, end = window(avail - 2)
		}
		above, below := 0, 0
		for i, s := range starts {
			fieldEnd := len(body)
			if i+1 < len(starts) {
				fieldEnd = starts[i+1]
			}
			if s+1 < off { // its title (after the blank separator) is hidden
				above++
			}
			if fieldEnd > end { // some of it is hidden
				below++
			}
		}
		var shown []string
		if off > 0 {
			shown = append(shown, moreLine(st, above, "↑", "above"))
		}
		shown = append(shown, body[off:end]...)
		if end < len(body) {
			shown = append(shown, moreLine(st, below, "↓", "below — tab moves on"))
		}
		body = shown
	}
	lines := append(append(append(head, body...), ""), foot...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// moreLine says that questions (n of them, wholly or partly, or part of
// the current one when n is 0) are scrolled out of sight.
func moreLine(st *uikit.Styles, n int, arrow, where string) string {
	switch {
	case n == 1:
		return st.Dialog.Muted.Render("  " + arrow + " 1 more question " + where)
	case n > 1:
		return st.Dialog.Muted.Render(fmt.Sprintf("  %s %d more questions %s", arrow, n, where))
	}
	return st.Dialog.Muted.Render("  " + arrow + " more " + where)
}

// fieldLines draws question i in a dialog of the given inner width.
func (f *InputForm) fieldLines(st *uikit.Styles, i, inner int) []string {
	ff := &f.fields[i]
	q := ff.q
	// The text input pads its placeholder (the default) to its width and
	// shows only its first rune at width 0: draw a copy sized to the dialog.
	// Its line is indent + prompt + width + one cell for the cursor.
	text := ff.text
	textView := func(indent int) string {
		text.SetWidth(max(1, inner-indent-ansi.StringWidth(text.Prompt)-1))
		return text.View()
	}
	marker := "  "
	if i == f.cur {
		marker = st.Dialog.Key.Render("▸ ")
	}
	title := questionLabel(q)
	if q.IsRequired() {
		title += " *"
	}
	lines := []string{marker + st.Dialog.Label.Render(title)}
	if q.Title != "" && q.Message != "" {
		lines = append(lines, "  "+st.Dialog.Text.Render(render.Sanitize(q.Message)))
	}
	switch q.Kind {
	case "boolean":
		yes, no := "( ) yes", "( ) no"
		if ff.boolVal {
			yes = "(•) yes"
		} else {
			no = "(•) no"
		}
		lines = append(lines, "  "+yes+"   "+no+st.Dialog.Muted.Render("   space/y/n"))
	case "single-select", "multi-select":
		for j, o := range q.Options {
			box := "( )"
			if q.Kind == "multi-select" {
				box = "[ ]"
			}
			if ff.selected[j] {
				box = strings.Replace(strings.Replace(box, " ", "•", 1), "[•]", "[x]", 1)
			}
			sty := st.Dialog.Option
			cur := "  "
			if i == f.cur && ff.cursor == j {
				sty, cur = st.Dialog.OptionSelected, "› "
			}
			label := render.Sanitize(o.Label)
			if o.Recommended != nil && *o.Recommended {
				label += " (recommended)"
			}
			if o.Description != "" {
				label += st.Dialog.Muted.Render(" — " + render.Sanitize(o.Description))
			}
			lines = append(lines, "  "+cur+box+" "+sty.Render(label))
		}
		if allowFreeform(&q) {
			cur := "    "
			if i == f.cur && ff.cursor == len(q.Options) {
				cur = "  › "
			}
			lines = append(lines, cur+"other: "+textView(len("    other: ")))
		}
	default:
		lines = append(lines, "  "+textView(2))
	}
	return lines
}
