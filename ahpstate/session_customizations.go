package ahpstate

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// Customizations are kept raw (ahpwire.SessionState.Customizations); the
// reducers below edit one entry by its "id" member. A container (plugin,
// directory) may hold children; toggling and the MCP server actions reach
// into them, update and remove act on top-level entries only.

// customizationID returns the "id" member of a raw customization.
func customizationID(raw json.RawMessage) string {
	var head struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return ""
	}
	return head.ID
}

// editObject decodes raw as an object, applies fn and re-encodes it; raw
// is returned unchanged when it is not an object.
func editObject(raw json.RawMessage, fn func(map[string]json.RawMessage)) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	fn(m)
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// editCustomization returns a copy of list with fn applied to the entry
// with the given id (searching children too when deep), and whether one
// was found.
func editCustomization(list []json.RawMessage, id string, deep bool, fn func(map[string]json.RawMessage)) ([]json.RawMessage, bool) {
	for i, raw := range list {
		if customizationID(raw) == id {
			out := append([]json.RawMessage(nil), list...)
			out[i] = editObject(raw, fn)
			return out, true
		}
		if !deep {
			continue
		}
		var c struct {
			Children []json.RawMessage `json:"children"`
		}
		if json.Unmarshal(raw, &c) != nil || len(c.Children) == 0 {
			continue
		}
		if kids, ok := editCustomization(c.Children, id, false, fn); ok {
			out := append([]json.RawMessage(nil), list...)
			out[i] = editObject(raw, func(m map[string]json.RawMessage) {
				b, _ := json.Marshal(kids)
				m["children"] = b
			})
			return out, true
		}
	}
	return list, false
}

// mcpState returns an edit that sets an MCP server's state and channel
// (the channel is dropped when empty: it only exists while running).
func mcpState(state json.RawMessage, channel string) func(map[string]json.RawMessage) {
	return func(m map[string]json.RawMessage) {
		m["state"] = state
		if channel == "" {
			delete(m, "channel")
			return
		}
		b, _ := json.Marshal(channel)
		m["channel"] = b
	}
}

// reduceCustomization applies the per-entry customization actions.
func reduceCustomization(s ahpwire.SessionState, a ahpwire.Action) ahpwire.SessionState {
	switch a := a.(type) {
	case *ahpwire.SessionCustomizationToggled:
		// A top-level match wins; otherwise the child of a container.
		enable := func(m map[string]json.RawMessage) { m["enabled"], _ = json.Marshal(a.Enabled) }
		cs, ok := editCustomization(s.Customizations, a.ID, false, enable)
		if !ok {
			cs, _ = editCustomization(s.Customizations, a.ID, true, enable)
		}
		s.Customizations = cs
	case *ahpwire.SessionCustomizationUpdated:
		id := customizationID(a.Customization)
		for i, raw := range s.Customizations {
			if customizationID(raw) == id {
				out := append([]json.RawMessage(nil), s.Customizations...)
				out[i] = a.Customization
				s.Customizations = out
				return s
			}
		}
		s.Customizations = append(clip(s.Customizations), a.Customization)
	case *ahpwire.SessionCustomizationRemoved:
		if cs, changed := without(s.Customizations, func(raw json.RawMessage) bool { return customizationID(raw) == a.ID }); changed {
			s.Customizations = cs
		}
	case *ahpwire.SessionMCPServerStateChanged:
		s.Customizations, _ = editCustomization(s.Customizations, a.ID, true, mcpState(a.State, a.Channel))
	case *ahpwire.SessionMCPServerStartRequested:
		s.Customizations, _ = editCustomization(s.Customizations, a.ID, true, mcpState(json.RawMessage(`{"kind":"starting"}`), ""))
	case *ahpwire.SessionMCPServerStopRequested:
		s.Customizations, _ = editCustomization(s.Customizations, a.ID, true, mcpState(json.RawMessage(`{"kind":"stopped"}`), ""))
	}
	return s
}
