package tui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// agentFieldID marks the new-session form's agent row (no schema
// property can be called this: it starts with a NUL).
const agentFieldID = "\x00agent"

// configAgentMsg asks the root to resolve the new-session form again for
// another agent (the user changed the form's agent row).
type configAgentMsg struct {
	provider string
	dir      string
}

// withAgents adds the agent row at the top of a new-session form when the
// host offers several agents, the form's own agent selected and focused.
func (f *configForm) withAgents(agents []ahpwire.AgentInfo) {
	if f.settings || len(agents) < 2 {
		return
	}
	fl := configField{id: agentFieldID}
	for i, a := range agents {
		v, _ := json.Marshal(a.Provider)
		fl.choices = append(fl.choices, configChoice{value: v, label: firstNonEmpty(a.DisplayName, a.Provider), desc: a.Description})
		if a.Provider == f.provider {
			fl.cur = i
		}
	}
	f.fields = append([]configField{fl}, f.fields...)
	f.setFocus(0)
}

// agentChanged asks the host for the chosen agent's session options,
// keeping the typed working directory.
func (f *configForm) agentChanged() tea.Cmd {
	fl := f.fields[f.focus]
	var provider string
	if json.Unmarshal(fl.choices[fl.cur].value, &provider) != nil || provider == f.provider {
		return nil
	}
	f.err, f.checking = "", true
	return emit(configAgentMsg{provider: provider, dir: f.dirValue()})
}

// fieldTitle is the label of a form row.
func (f *configForm) fieldTitle(fl configField) string {
	switch {
	case fl.id == agentFieldID:
		return "Agent"
	case fl.id == "" && !f.settings:
		return "Working directory"
	}
	return oneLine(render.Sanitize(firstNonEmpty(fl.prop.Title, fl.id)))
}
