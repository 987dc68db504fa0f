package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// configResolvedMsg is the host's schema for a new session (err: the host
// has none or failed; the session is then created without a form).
type configResolvedMsg struct {
	provider string
	dir      string
	res      ahpwire.ResolveSessionConfigResult
	err      error
}

// configValuesMsg carries value completions of one property.
type configValuesMsg struct {
	prop  string
	query string // the filter the values answer ("" = all)
	items []ahpwire.SessionConfigValueItem
	err   error
}

// configCheckedMsg is the host's verdict on the filled form.
type configCheckedMsg struct {
	provider string
	dir      string
	values   map[string]json.RawMessage
	err      error
}

// configChoice is one selectable value of a property.
type configChoice struct {
	value json.RawMessage
	label string
	desc  string
}

// configField is one row of the form.
type configField struct {
	id      string // "" = the working directory
	prop    ahpwire.SessionConfigPropertySchema
	text    textinput.Model // directory and free text
	choices []configChoice
	cur     int
	query   string // typed filter of a dynamic property's values
	// all holds a static enum's every value when it has more than
	// maxEnumChoices: choices is then the first maxEnumChoices of them
	// matching query (typing filters, as for dynamic properties).
	all []configChoice
}

// maxEnumChoices caps the values of a static enum the form cycles through;
// typing filters the rest (a hostile schema may list 1e5 values).
const maxEnumChoices = 500

// configForm shows the host's session configuration before a session is
// created: the working directory and every schema property, defaults
// pre-filled, enum values cycled with ↑/↓ (dynamic ones completed by the
// host), validated locally and by the host before createSession.
type configForm struct {
	km       keymap.Form
	provider string
	schema   ahpwire.SessionConfigSchema
	fields   []configField
	focus    int
	err      string
	checking bool
	// settings: the form changes a live session's mutable settings
	// (session/configChanged) instead of creating a session.
	settings bool
	// checkedDir is the working directory last checked with the host.
	checkedDir string
}

// dirChecked shows the host's verdict on the working directory (a stale
// answer for another directory is ignored).
func (f *configForm) dirChecked(msg configDirCheckedMsg) {
	if msg.dir != f.dirValue() || f.settings {
		return
	}
	if msg.err != nil {
		f.err = "Working directory: " + errText(msg.err)
		return
	}
	if strings.HasPrefix(f.err, "Working directory") {
		f.err = ""
	}
}

// configChangeMsg asks the root to dispatch session/configChanged.
type configChangeMsg struct {
	values map[string]json.RawMessage
}

// newSettingsForm shows the settings of a live session that may change
// (sessionMutable and not readOnly); nil when there are none.
func newSettingsForm(km keymap.Form, cfg *ahpwire.ConfigState, st *Styles) *configForm {
	if cfg == nil {
		return nil
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(cfg.Schema)
	if err != nil {
		return nil
	}
	mut := ahpwire.SessionConfigSchema{Type: "object", Properties: map[string]ahpwire.SessionConfigPropertySchema{}}
	for _, k := range schema.Keys() {
		if p := schema.Properties[k]; p.SessionMutable && !p.ReadOnly {
			mut.Properties[k] = p
			mut.Order = append(mut.Order, k)
		}
	}
	if len(mut.Order) == 0 {
		return nil
	}
	f := newConfigForm(km, configResolvedMsg{res: ahpwire.ResolveSessionConfigResult{Schema: mut, Values: cfg.Values}}, st)
	f.fields = f.fields[1:] // no working directory
	f.settings = true
	f.setFocus(0)
	return f
}

// newConfigForm builds the form from the host's answer.
func newConfigForm(km keymap.Form, msg configResolvedMsg, st *Styles) *configForm {
	f := &configForm{km: km, provider: msg.provider, schema: msg.res.Schema}
	dir := newTextInput(st)
	dir.Prompt = "› "
	dir.SetValue(dirPath(msg.dir))
	f.checkedDir = dirPath(msg.dir)
	f.fields = append(f.fields, configField{text: dir})
	for _, id := range msg.res.Schema.Keys() {
		p := msg.res.Schema.Properties[id]
		fl := configField{id: id, prop: p}
		cur := msg.res.Values[id]
		if len(cur) == 0 {
			cur = p.Default
		}
		if len(p.Enum) > 0 || p.Type == "boolean" {
			fl.choices = enumChoices(p)
			for i, c := range fl.choices {
				if len(cur) > 0 && string(c.value) == string(cur) {
					fl.cur = i
				}
			}
			if len(fl.choices) > maxEnumChoices {
				fl.all = fl.choices
				fl.choices = fl.all[:maxEnumChoices:maxEnumChoices]
				if fl.cur >= maxEnumChoices { // keep the current value reachable
					fl.choices = append(fl.choices[:maxEnumChoices-1:maxEnumChoices-1], fl.all[fl.cur])
					fl.cur = maxEnumChoices - 1
				}
			}
		} else {
			fl.text = newTextInput(st)
			fl.text.Prompt = "› "
			var s string
			if json.Unmarshal(cur, &s) == nil {
				fl.text.SetValue(s)
			}
		}
		f.fields = append(f.fields, fl)
	}
	f.setFocus(0)
	return f
}

// enumChoices lists a property's static values (true/false for booleans).
func enumChoices(p ahpwire.SessionConfigPropertySchema) []configChoice {
	if p.Type == "boolean" && len(p.Enum) == 0 {
		return []configChoice{{value: json.RawMessage("true"), label: "yes"}, {value: json.RawMessage("false"), label: "no"}}
	}
	// One pass: each value's label is at its own index (EnumLabel would
	// compare it with every value, two JSON decodes a pair).
	out := make([]configChoice, 0, len(p.Enum))
	for i, e := range p.Enum {
		c := configChoice{value: e}
		if i < len(p.EnumLabels) && p.EnumLabels[i] != "" {
			c.label = p.EnumLabels[i]
		} else if err := json.Unmarshal(e, &c.label); err != nil {
			c.label = string(e)
		}
		if i < len(p.EnumDescriptions) {
			c.desc = p.EnumDescriptions[i]
		}
		out = append(out, c)
	}
	return out
}

// valueCmds asks the host for the values of every dynamic property.
func (f *configForm) valueCmds(ctx context.Context, be Backend) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return nil
	}
	var cmds []tea.Cmd
	for _, fl := range f.fields {
		if fl.id == "" || !fl.prop.EnumDynamic {
			continue
		}
		p := ahpwire.SessionConfigCompletionsParams{Provider: f.provider, WorkingDirectory: dirURI(f.dirValue()), Property: fl.id}
		cmds = append(cmds, func() tea.Msg {
			c, cancel := context.WithTimeout(ctx, configTimeout)
			defer cancel()
			items, err := cb.SessionConfigCompletions(c, p)
			return configValuesMsg{prop: p.Property, items: items, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// setValues replaces a dynamic property's choices with the host's values,
// keeping the current selection when it is among them.
func (f *configForm) setValues(msg configValuesMsg) {
	if msg.err != nil || len(msg.items) == 0 {
		return
	}
	for i := range f.fields {
		fl := &f.fields[i]
		if fl.id != msg.prop || fl.query != msg.query {
			continue // another property, or a stale filter
		}
		var cur json.RawMessage
		if fl.cur < len(fl.choices) {
			cur = fl.choices[fl.cur].value
		}
		fl.choices, fl.cur = nil, 0
		for j, it := range msg.items {
			v, _ := json.Marshal(it.Value)
			fl.choices = append(fl.choices, configChoice{value: v, label: firstNonEmpty(it.Label, it.Value), desc: it.Description})
			if string(v) == string(cur) {
				fl.cur = j
			}
		}
	}
}

func (f *configForm) setFocus(i int) {
	for j := range f.fields {
		if f.fields[j].choices == nil {
			f.fields[j].text.Blur()
		}
	}
	f.focus = (i + len(f.fields)) % len(f.fields)
	if fl := &f.fields[f.focus]; fl.choices == nil {
		fl.text.Focus()
	}
}

// values collects the form; it reports the first problem found locally.
func (f *configForm) values() (dir string, vals map[string]json.RawMessage, problem string) {
	if !f.settings {
		dir = f.dirValue()
		if dir == "" {
			return "", nil, "Working directory: required"
		}
	}
	vals = map[string]json.RawMessage{}
	for _, fl := range f.fields {
		switch {
		case fl.id == "" || fl.id == agentFieldID:
			// the working directory and the agent are not config values
		case fl.choices != nil:
			if fl.cur < len(fl.choices) {
				vals[fl.id] = fl.choices[fl.cur].value
			}
		case strings.TrimSpace(fl.text.Value()) != "":
			b, _ := json.Marshal(fl.text.Value())
			vals[fl.id] = b
		}
	}
	if err := f.schema.CheckConfig(vals); err != nil {
		return "", nil, err.Error()
	}
	return dir, vals, ""
}

// Update: tab/shift+tab move, ↑/↓ change a choice, enter validates and
// asks the host, esc cancels.
func (f *configForm) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil, resultNone
	}
	fl := &f.fields[f.focus]
	switch {
	case key.Matches(k, f.km.Later):
		return f, nil, resultClose
	case key.Matches(k, f.km.NextField), key.Matches(k, f.km.PrevField):
		leaving := f.focus
		if key.Matches(k, f.km.NextField) {
			f.setFocus(f.focus + 1)
		} else {
			f.setFocus(f.focus - 1)
		}
		if f.fields[leaving].id == "" && !f.settings {
			// The working directory changed the draft: ask the host again.
			dir := f.dirValue()
			if dir != f.checkedDir {
				f.checkedDir = dir
				return f, emit(configDirMsg{provider: f.provider, dir: dir}), resultNone
			}
		}
	case fl.choices != nil && key.Matches(k, f.km.Down):
		fl.cur = (fl.cur + 1) % len(fl.choices)
		if fl.id == agentFieldID {
			return f, f.agentChanged(), resultNone
		}
	case fl.choices != nil && key.Matches(k, f.km.Up):
		fl.cur = (fl.cur + len(fl.choices) - 1) % len(fl.choices)
		if fl.id == agentFieldID {
			return f, f.agentChanged(), resultNone
		}
	case key.Matches(k, f.km.Submit):
		dir, vals, problem := f.values()
		if problem != "" {
			f.err = problem
			return f, nil, resultNone
		}
		if f.settings {
			return f, emit(configChangeMsg{values: vals}), resultClose
		}
		f.err, f.checking = "", true
		return f, emit(configSubmitMsg{provider: f.provider, dir: dir, values: vals}), resultNone
	default:
		if fl.choices == nil {
			var cmd tea.Cmd
			fl.text, cmd = fl.text.Update(k)
			return f, cmd, resultNone
		}
		if fl.all != nil {
			fl.filterStatic(k)
			return f, nil, resultNone
		}
		if fl.prop.EnumDynamic {
			// Typing on a dynamic property asks the host for matching values.
			switch {
			case k.Code == tea.KeyBackspace && fl.query != "":
				fl.query = string([]rune(fl.query)[:len([]rune(fl.query))-1])
			case k.Text != "" && k.Mod&^tea.ModShift == 0:
				fl.query += k.Text
			default:
				return f, nil, resultNone
			}
			return f, emit(configQueryMsg{provider: f.provider, dir: f.dirValue(), prop: fl.id, query: fl.query}), resultNone
		}
	}
	return f, nil, resultNone
}

// filterStatic applies a key typed on a static enum with more than
// maxEnumChoices values: the choices become the first maxEnumChoices whose
// label holds the query (a key that would match nothing is ignored).
func (fl *configField) filterStatic(k tea.KeyPressMsg) {
	q := fl.query
	switch {
	case k.Code == tea.KeyBackspace && q != "":
		q = string([]rune(q)[:len([]rune(q))-1])
	case k.Text != "" && k.Mod&^tea.ModShift == 0:
		q += k.Text
	default:
		return
	}
	lq := strings.ToLower(q)
	var shown []configChoice
	for _, c := range fl.all {
		if strings.Contains(strings.ToLower(c.label), lq) {
			shown = append(shown, c)
			if len(shown) == maxEnumChoices {
				break
			}
		}
	}
	if len(shown) == 0 {
		return
	}
	fl.query, fl.choices, fl.cur = q, shown, 0
}

// dirValue is the working directory typed in the form ("" for settings).
func (f *configForm) dirValue() string {
	if f.settings {
		return ""
	}
	for _, fl := range f.fields {
		if fl.id == "" {
			return strings.TrimSpace(fl.text.Value())
		}
	}
	return ""
}

// View draws the form.
func (f *configForm) View(st *Styles, width, height int) string {
	inner := max(24, min(width, 80)-4)
	title := "New session"
	if f.settings {
		title = "Session settings"
	}
	lines := []string{st.Dialog.Title.Render(title), ""}
	for i, fl := range f.fields {
		title := f.fieldTitle(fl)
		lab := st.Dialog.Label
		if i == f.focus {
			lab = st.Dialog.Key
		}
		lines = append(lines, lab.Render(title))
		switch {
		case fl.choices != nil:
			c := fl.choices[fl.cur]
			val := "‹ " + oneLine(render.Sanitize(c.label)) + " ›"
			if i == f.focus {
				val = st.Dialog.OptionSelected.Render(val)
			}
			if c.desc != "" {
				val += "  " + st.Dialog.Muted.Render(oneLine(render.Sanitize(c.desc)))
			}
			if fl.query != "" {
				val += "  " + st.Dialog.Key.Render("filter: "+oneLine(render.Sanitize(fl.query)))
			} else if (fl.prop.EnumDynamic || fl.all != nil) && i == f.focus {
				val += "  " + st.Dialog.Muted.Render("type to search")
			}
			if fl.all != nil && i == f.focus {
				val += "  " + st.Dialog.Muted.Render(fmt.Sprintf("(%d shown of %d)", len(fl.choices), len(fl.all)))
			}
			lines = append(lines, "  "+val)
		default:
			lines = append(lines, fl.text.View())
		}
	}
	lines = append(lines, "")
	if f.err != "" {
		lines = append(lines, st.Dialog.Error.Render("✗ "+oneLine(render.Sanitize(f.err))))
	} else if f.checking {
		lines = append(lines, st.Dialog.Muted.Render("checking with the host…"))
	}
	verb := "create"
	if f.settings {
		verb = "apply"
	}
	lines = append(lines, keyHints(st, inner, "tab", "next field", "↑/↓", "change value", "enter", verb, "esc", "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
