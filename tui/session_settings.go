package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
)

// Session settings: the settings form of an open session
// (dialog/sessionconfig.go draws it) and the mode key (shift+tab, /mode),
// both as session/configChanged.

// onSettings opens the settings form, or dispatches what it changed.
func (m *Model) onSettings(msg tea.Msg) tea.Cmd {
	ss := m.sessionState()
	if ss == nil || m.chat == nil {
		return nil
	}
	switch msg := msg.(type) {
	case app.OpenSettingsMsg:
		f := dialog.NewSettingsForm(m.c.KM.Form, ss.Config, &m.c.Styles)
		if f == nil {
			return m.setNotice("this session has no settings that can change", false)
		}
		m.overlays = append(m.overlays, f)
		return valueCmds(m.c.Ctx, m.c.Backend, f)
	case dialog.ConfigChangeMsg:
		if ss.Config == nil {
			return nil
		}
		changed := map[string]json.RawMessage{}
		for k, v := range msg.Values {
			if string(ss.Config.Values[k]) != string(v) {
				changed[k] = v
			}
		}
		if len(changed) == 0 {
			return nil
		}
		return m.c.Dispatch(m.chat.Session, &ahpwire.SessionConfigChanged{Config: changed}, "change session settings")
	}
	return nil
}

// modeProperty finds the session's mode setting: the mutable enum property
// named "mode", else the first whose name contains "mode".
func modeProperty(cfg *ahpwire.ConfigState) (string, ahpwire.SessionConfigPropertySchema, bool) {
	if cfg == nil {
		return "", ahpwire.SessionConfigPropertySchema{}, false
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(cfg.Schema)
	if err != nil {
		return "", ahpwire.SessionConfigPropertySchema{}, false
	}
	usable := func(p ahpwire.SessionConfigPropertySchema) bool {
		return p.SessionMutable && !p.ReadOnly && len(p.Enum) > 1
	}
	if p, ok := schema.Properties["mode"]; ok && usable(p) {
		return "mode", p, true
	}
	for _, name := range schema.Keys() {
		if p := schema.Properties[name]; strings.Contains(strings.ToLower(name), "mode") && usable(p) {
			return name, p, true
		}
	}
	return "", ahpwire.SessionConfigPropertySchema{}, false
}

// cycleMode switches the session to the next value of its mode setting
// (shift+tab, /mode).
func (m *Model) cycleMode() tea.Cmd {
	ss := m.sessionState()
	if ss == nil || m.chat == nil {
		return nil
	}
	name, p, ok := modeProperty(ss.Config)
	if !ok {
		return m.setNotice("this session has no mode to switch", false)
	}
	cur := string(ss.Config.Values[name])
	next := 0
	for i, v := range p.Enum {
		if string(v) == cur {
			next = (i + 1) % len(p.Enum)
		}
	}
	return m.setMode(name, p, next)
}

// setMode dispatches mode value i of property name.
func (m *Model) setMode(name string, p ahpwire.SessionConfigPropertySchema, i int) tea.Cmd {
	v := p.Enum[i]
	label := strings.Trim(string(v), `"`)
	if i < len(p.EnumLabels) && p.EnumLabels[i] != "" {
		label = p.EnumLabels[i]
	}
	a := &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{name: v}}
	return tea.Batch(m.c.Dispatch(m.chat.Session, a, "change the session mode"),
		m.setNotice("mode: "+label, false))
}
