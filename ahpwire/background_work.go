package ahpwire

import (
	"encoding/json"
	"fmt"
)

// backgroundWorkKinds are the BackgroundWork kinds modelled by the struct;
// entries of other kinds keep their unmodelled members in Extra.
var backgroundWorkKinds = map[string]bool{"shell": true, "subagent": true}

// backgroundWorkFields are the JSON members BackgroundWork models.
var backgroundWorkFields = map[string]bool{
	"kind": true, "id": true, "label": true, "status": true, "startedAt": true,
	"command": true, "terminal": true, "chat": true,
}

// UnmarshalJSON decodes the modelled members and, for an unknown kind,
// keeps the others in Extra.
func (w *BackgroundWork) UnmarshalJSON(b []byte) error {
	type plain BackgroundWork
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("ahpwire: background work: %w", err)
	}
	p.Extra = nil
	if !backgroundWorkKinds[p.Kind] {
		var all map[string]json.RawMessage
		if err := json.Unmarshal(b, &all); err != nil {
			return fmt.Errorf("ahpwire: background work: %w", err)
		}
		for k, v := range all {
			if !backgroundWorkFields[k] {
				if p.Extra == nil {
					p.Extra = map[string]json.RawMessage{}
				}
				p.Extra[k] = v
			}
		}
	}
	*w = BackgroundWork(p)
	return nil
}

// MarshalJSON encodes the modelled members plus Extra.
func (w BackgroundWork) MarshalJSON() ([]byte, error) {
	type plain BackgroundWork
	b, err := json.Marshal(plain(w))
	if err != nil || len(w.Extra) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("ahpwire: background work: %w", err)
	}
	for k, v := range w.Extra {
		if !backgroundWorkFields[k] {
			all[k] = v
		}
	}
	return json.Marshal(all)
}
