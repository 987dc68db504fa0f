package ahpwire

import (
	"encoding/json"
	"fmt"
)

// An annotation and its entries keep the members this package does not
// model (a newer host's, e.g. an entry's timestamp) in Extra, so a client
// that edits a thread (annotations/set replaces it whole) does not drop
// them, and a state survives a decode and re-encode whole.

var (
	annotationFields = map[string]bool{"id": true, "turnId": true, "origin": true, "resource": true,
		"range": true, "resolved": true, "entries": true, "_meta": true}
	entryFields = map[string]bool{"id": true, "text": true, "_meta": true}
)

// extraOf returns the members of the object b that known does not list.
func extraOf(b []byte, known map[string]bool) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	var extra map[string]json.RawMessage
	for k, v := range all {
		if !known[k] {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = v
		}
	}
	return extra, nil
}

// withExtra adds extra's members (not in known) to the encoded object b.
func withExtra(b []byte, extra map[string]json.RawMessage, known map[string]bool) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if !known[k] {
			all[k] = v
		}
	}
	return json.Marshal(all)
}

// UnmarshalJSON decodes the modelled members and keeps the others.
func (a *Annotation) UnmarshalJSON(b []byte) error {
	type plain Annotation
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("ahpwire: annotation: %w", err)
	}
	extra, err := extraOf(b, annotationFields)
	if err != nil {
		return fmt.Errorf("ahpwire: annotation: %w", err)
	}
	p.Extra = extra
	*a = Annotation(p)
	return nil
}

// MarshalJSON writes the annotation (entries always an array) with its
// unmodelled members.
func (a Annotation) MarshalJSON() ([]byte, error) {
	type plain Annotation
	if a.Entries == nil {
		a.Entries = []AnnotationEntry{}
	}
	b, err := json.Marshal(plain(a))
	if err != nil {
		return nil, err
	}
	return withExtra(b, a.Extra, annotationFields)
}

// UnmarshalJSON decodes the modelled members and keeps the others.
func (e *AnnotationEntry) UnmarshalJSON(b []byte) error {
	type plain AnnotationEntry
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("ahpwire: annotation entry: %w", err)
	}
	extra, err := extraOf(b, entryFields)
	if err != nil {
		return fmt.Errorf("ahpwire: annotation entry: %w", err)
	}
	p.Extra = extra
	*e = AnnotationEntry(p)
	return nil
}

// MarshalJSON writes the entry with its unmodelled members.
func (e AnnotationEntry) MarshalJSON() ([]byte, error) {
	type plain AnnotationEntry
	b, err := json.Marshal(plain(e))
	if err != nil {
		return nil, err
	}
	return withExtra(b, e.Extra, entryFields)
}

// UnmarshalJSON accepts {items: [...]} and, from hosts that send the
// list bare, [...].
func (l *ResourceChangeList) UnmarshalJSON(b []byte) error {
	var items []ResourceChange
	if err := json.Unmarshal(b, &items); err == nil {
		l.Items = items
		return nil
	}
	type plain ResourceChangeList
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("ahpwire: resource changes: %w", err)
	}
	*l = ResourceChangeList(p)
	return nil
}
