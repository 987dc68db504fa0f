package dialog

import (
	"cmp"
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
	"github.com/ahptui/ahptui/tui/uikit"
)

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

// ConfigForm shows the host's session configuration before a session is
// created: the working directory and every schema property, defaults
// pre-filled, enum values cycled with ↑/↓ (dynamic ones completed by the
// host), validated locally and by the host before createSession. It asks
// the root for what needs the host (ConfigQueryMsg, ConfigDirMsg,
// ConfigSubmitMsg, ConfigAgentMsg) and is told the answers (SetValues,
// DirChecked, Refused).
type ConfigForm struct {
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

// DirChecked shows the host's verdict on the working directory (a stale
// answer for another directory is ignored); why is the text of msg.Err
// for the user.
func (f *ConfigForm) DirChecked(msg ConfigDirCheckedMsg, why string) {
	if msg.Dir != f.dirValue() || f.settings {
		return
	}
	if msg.Err != nil {
		f.err = "Working directory: " + why
		return
	}
	if strings.HasPrefix(f.err, "Working directory") {
		f.err = ""
	}
}

// NewSettingsForm shows the settings of a live session that may change
// (sessionMutable and not readOnly); nil when there are none.
func NewSettingsForm(km keymap.Form, cfg *ahpwire.ConfigState, st *uikit.Styles) *ConfigForm {
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
	f := NewConfigForm(km, ConfigResolvedMsg{Res: ahpwire.ResolveSessionConfigResult{Schema: mut, Values: cfg.Values}}, st)
	f.fields = f.fields[1:] // no working directory
	f.settings = true
	f.setFocus(0)
	return f
}

// NewConfigForm builds the form from the host's answer.
func NewConfigForm(km keymap.Form, msg ConfigResolvedMsg, st *uikit.Styles) *ConfigForm {
	f := &ConfigForm{km: km, provider: msg.Provider, schema: msg.Res.Schema}
	dir := uikit.NewTextInput(st)
	dir.Prompt = "› "
	dir.SetValue(DirPath(msg.Dir))
	f.checkedDir = DirPath(msg.Dir)
	f.fields = append(f.fields, configField{text: dir})
	for _, id := range msg.Res.Schema.Keys() {
		p := msg.Res.Schema.Properties[id]
		fl := configField{id: id, prop: p}
		cur := msg.Res.Values[id]
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
			fl.text = uikit.NewTextInput(st)
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

// Provider is the agent the form configures a session for.
func (f *ConfigForm) Provider() string { return f.provider }

// Settings reports a settings form (a live session's), not a new
// session's.
func (f *ConfigForm) Settings() bool { return f.settings }

// Refused shows why the host refused the filled form (why: its error's
// text for the user); the form stays open to be corrected.
func (f *ConfigForm) Refused(why string) {
	f.checking, f.err = false, why
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

// ValueQueries are the questions for the values of every dynamic
// property (all its values: no filter), which the root asks the host
// when the form opens.
func (f *ConfigForm) ValueQueries() []ConfigQueryMsg {
	var out []ConfigQueryMsg
	for _, fl := range f.fields {
		if fl.id == "" || !fl.prop.EnumDynamic {
			continue
		}
		out = append(out, ConfigQueryMsg{Provider: f.provider, Dir: f.dirValue(), Prop: fl.id})
	}
	return out
}

// SetValues replaces a dynamic property's choices with the host's values,
// keeping the current selection when it is among them.
func (f *ConfigForm) SetValues(msg ConfigValuesMsg) {
	if msg.Err != nil || len(msg.Items) == 0 {
		return
	}
	for i := range f.fields {
		fl := &f.fields[i]
		if fl.id != msg.Prop || fl.query != msg.Query {
			continue // another property, or a stale filter
		}
		var cur json.RawMessage
		if fl.cur < len(fl.choices) {
			cur = fl.choices[fl.cur].value
		}
		fl.choices, fl.cur = nil, 0
		for j, it := range msg.Items {
			v, _ := json.Marshal(it.Value)
			fl.choices = append(fl.choices, configChoice{value: v, label: cmp.Or(it.Label, it.Value), desc: it.Description})
			if string(v) == string(cur) {
				fl.cur = j
			}
		}
	}
}

func (f *ConfigForm) setFocus(i int) {
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
func (f *ConfigForm) values() (dir string, vals map[string]json.RawMessage, problem string) {
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
func (f *ConfigForm) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil, uikit.ResultNone
	}
	fl := &f.fields[f.focus]
	switch {
	case key.Matches(k, f.km.Later):
		return f, nil, uikit.ResultClose
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
				return f, uikit.Emit(ConfigDirMsg{Provider: f.provider, Dir: dir}), uikit.ResultNone
			}
		}
	case fl.choices != nil && key.Matches(k, f.km.Down):
		fl.cur = (fl.cur + 1) % len(fl.choices)
		if fl.id == agentFieldID {
			return f, f.agentChanged(), uikit.ResultNone
		}
	case fl.choices != nil && key.Matches(k, f.km.Up):
		fl.cur = (fl.cur + len(fl.choices) - 1) % len(fl.choices)
		if fl.id == agentFieldID {
			return f, f.agentChanged(), uikit.ResultNone
		}
	case key.Matches(k, f.km.Submit):
		dir, vals, problem := f.values()
		if problem != "" {
			f.err = problem
			return f, nil, uikit.ResultNone
		}
		if f.settings {
			return f, uikit.Emit(ConfigChangeMsg{Values: vals}), uikit.ResultClose
		}
		f.err, f.checking = "", true
		return f, uikit.Emit(ConfigSubmitMsg{Provider: f.provider, Dir: dir, Values: vals}), uikit.ResultNone
	default:
		if fl.choices == nil {
			var cmd tea.Cmd
			fl.text, cmd = fl.text.Update(k)
			return f, cmd, uikit.ResultNone
		}
		if fl.all != nil {
			fl.filterStatic(k)
			return f, nil, uikit.ResultNone
		}
		if fl.prop.EnumDynamic {
			// Typing on a dynamic property asks the host for matching values.
			switch {
			case k.Code == tea.KeyBackspace && fl.query != "":
				fl.query = string([]rune(fl.query)[:len([]rune(fl.query))-1])
			case k.Text != "" && k.Mod&^tea.ModShift == 0:
				fl.query += k.Text
			default:
				return f, nil, uikit.ResultNone
			}
			return f, uikit.Emit(ConfigQueryMsg{Provider: f.provider, Dir: f.dirValue(), Prop: fl.id, Query: fl.query}), uikit.ResultNone
		}
	}
	return f, nil, uikit.ResultNone
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
func (f *ConfigForm) dirValue() string {
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
func (f *ConfigForm) View(st *uikit.Styles, width, height int) string {
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
			val := "‹ " + uikit.OneLine(render.Sanitize(c.label)) + " ›"
			if i == f.focus {
				val = st.Dialog.OptionSelected.Render(val)
			}
			if c.desc != "" {
				val += "  " + st.Dialog.Muted.Render(uikit.OneLine(render.Sanitize(c.desc)))
			}
			if fl.query != "" {
				val += "  " + st.Dialog.Key.Render("filter: "+uikit.OneLine(render.Sanitize(fl.query)))
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
		lines = append(lines, st.Dialog.Error.Render("✗ "+uikit.OneLine(render.Sanitize(f.err))))
	} else if f.checking {
		lines = append(lines, st.Dialog.Muted.Render("checking with the host…"))
	}
	verb := "create"
	if f.settings {
		verb = "apply"
	}
	lines = append(lines, uikit.KeyHints(st, inner, "tab", "next field", "↑/↓", "change value", "enter", verb, "esc", "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
