package dialog

import (
	"cmp"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// agentFieldID marks the new-session form's agent row (no schema
// property can be called this: it starts with a NUL).
const agentFieldID = "\x00agent"

// WithAgents adds the agent row at the top of a new-session form when the
// host offers several agents, the form's own agent selected and focused.
func (f *ConfigForm) WithAgents(agents []ahpwire.AgentInfo) {
	if f.settings || len(agents) < 2 {
		return
	}
	fl := configField{id: agentFieldID}
	for i, a := range agents {
		v, _ := json.Marshal(a.Provider)
		fl.choices = append(fl.choices, configChoice{value: v, label: cmp.Or(a.DisplayName, a.Provider), desc: a.Description})
		if a.Provider == f.provider {
			fl.cur = i
		}
	}
	f.fields = append([]configField{fl}, f.fields...)
	f.setFocus(0)
}

// agentChanged asks the host for the chosen agent's session options,
// keeping the typed working directory.
func (f *ConfigForm) agentChanged() tea.Cmd {
	fl := f.fields[f.focus]
	var provider string
	if json.Unmarshal(fl.choices[fl.cur].value, &provider) != nil || provider == f.provider {
		return nil
	}
	f.err, f.checking = "", true
	return uikit.Emit(ConfigAgentMsg{Provider: provider, Dir: f.dirValue()})
}

// fieldTitle is the label of a form row.
func (f *ConfigForm) fieldTitle(fl configField) string {
	switch {
	case fl.id == agentFieldID:
		return "Agent"
	case fl.id == "" && !f.settings:
		return "Working directory"
	}
	return uikit.OneLine(render.Sanitize(cmp.Or(fl.prop.Title, fl.id)))
}
