package ahpstate

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// Customizations are kept raw (ahpwire.SessionState.Customizations); the
// reducers below edit one entry by its "id" member. Top-level entries are
// containers (plugin, directory) or MCP servers; a container holds
// children. Toggle and remove reach a container's children when no
// top-level entry has the id; the MCP server actions change only entries
// of type "mcpServer" (top-level or a container's child) and are no-ops
// for any other entry; update acts on top-level entries only. An MCP
// server entry's own "children" are never searched.

// customizationTypeMCP is CustomizationType.McpServer.
const customizationTypeMCP = "mcpServer"

// customizationHead decodes the members of a raw customization the
// reducers look at.
func customizationHead(raw json.RawMessage) (id, typ string, children []json.RawMessage) {
	var head struct {
		ID       string            `json:"id"`
		Type     string            `json:"type"`
		Children []json.RawMessage `json:"children"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return "", "", nil
	}
	return head.ID, head.Type, head.Children
}

// customizationID returns the "id" member of a raw customization.
func customizationID(raw json.RawMessage) string {
	id, _, _ := customizationHead(raw)
	return id
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

// withChildren returns the container raw with its children replaced.
func withChildren(raw json.RawMessage, kids []json.RawMessage) json.RawMessage {
	return editObject(raw, func(m map[string]json.RawMessage) {
		b, _ := json.Marshal(kids)
		m["children"] = b
	})
}

// customizationEdit is one reducer's change to a matched entry: keep
// reports whether the entry may be changed (by its type), and fn returns
// its new encoding, or nil to remove it. With firstOnly, only the first
// container holding the id as a child is changed (toggle); otherwise every
// such container is (remove, MCP server state).
type customizationEdit struct {
	keep      func(typ string) bool
	fn        func(raw json.RawMessage) json.RawMessage
	firstOnly bool
}

// applyCustomizationEdit finds id among the top-level entries, then among
// the children of non-MCP containers, and applies e to the first match.
// It returns list unchanged (same slice) when nothing changed: an id that
// is not found, or found on an entry e does not keep.
func applyCustomizationEdit(list []json.RawMessage, id string, e customizationEdit) []json.RawMessage {
	for i, raw := range list {
		cid, typ, _ := customizationHead(raw)
		if cid != id {
			continue
		}
		if !e.keep(typ) {
			return list
		}
		return replaceAt(list, i, e.fn(raw))
	}
	out := list
	for i, raw := range list {
		_, typ, kids := customizationHead(raw)
		if typ == customizationTypeMCP || len(kids) == 0 {
			continue
		}
		for j, kid := range kids {
			kid2, ktyp, _ := customizationHead(kid)
			if kid2 != id {
				continue
			}
			if !e.keep(ktyp) {
				// A matching child of the wrong type leaves this
				// container alone; the search goes on.
				break
			}
			out = replaceAt(out, i, withChildren(raw, replaceAt(kids, j, e.fn(kid))))
			if e.firstOnly {
				return out
			}
			break
		}
	}
	return out
}

// replaceAt returns a copy of list with element i replaced by v, or
// removed when v is nil.
func replaceAt(list []json.RawMessage, i int, v json.RawMessage) []json.RawMessage {
	if v == nil {
		out := make([]json.RawMessage, 0, len(list)-1)
		out = append(out, list[:i]...)
		return append(out, list[i+1:]...)
	}
	out := append([]json.RawMessage(nil), list...)
	out[i] = v
	return out
}

// anyType keeps entries of every type.
func anyType(string) bool { return true }

// mcpOnly keeps MCP server entries only.
func mcpOnly(typ string) bool { return typ == customizationTypeMCP }

// mcpState returns an edit that sets an MCP server's state and channel
// (the channel is dropped when empty: it only exists while running).
func mcpState(state json.RawMessage, channel string) customizationEdit {
	return customizationEdit{keep: mcpOnly, fn: func(raw json.RawMessage) json.RawMessage {
		return editObject(raw, func(m map[string]json.RawMessage) {
			m["state"] = state
			if channel == "" {
				delete(m, "channel")
				return
			}
			b, _ := json.Marshal(channel)
			m["channel"] = b
		})
	}}
}

// reduceCustomization applies the per-entry customization actions.
func reduceCustomization(s ahpwire.SessionState, a ahpwire.Action) ahpwire.SessionState {
	switch a := a.(type) {
	case *ahpwire.SessionCustomizationToggled:
		enabled, _ := json.Marshal(a.Enabled)
		s.Customizations = applyCustomizationEdit(s.Customizations, a.ID, customizationEdit{keep: anyType, firstOnly: true,
			fn: func(raw json.RawMessage) json.RawMessage {
				return editObject(raw, func(m map[string]json.RawMessage) { m["enabled"] = enabled })
			}})
	case *ahpwire.SessionCustomizationUpdated:
		id := customizationID(a.Customization)
		for i, raw := range s.Customizations {
			if customizationID(raw) == id {
				s.Customizations = replaceAt(s.Customizations, i, a.Customization)
				return s
			}
		}
		s.Customizations = append(clip(s.Customizations), a.Customization)
	case *ahpwire.SessionCustomizationRemoved:
		s.Customizations = applyCustomizationEdit(s.Customizations, a.ID, customizationEdit{keep: anyType,
			fn: func(json.RawMessage) json.RawMessage { return nil }})
	case *ahpwire.SessionMCPServerStateChanged:
		s.Customizations = applyCustomizationEdit(s.Customizations, a.ID, mcpState(a.State, a.Channel))
	case *ahpwire.SessionMCPServerStartRequested:
		s.Customizations = applyCustomizationEdit(s.Customizations, a.ID, mcpState(json.RawMessage(`{"kind":"starting"}`), ""))
	case *ahpwire.SessionMCPServerStopRequested:
		s.Customizations = applyCustomizationEdit(s.Customizations, a.ID, mcpState(json.RawMessage(`{"kind":"stopped"}`), ""))
	}
	return s
}
