// Session configuration schema (JSON Schema subset with AHP display
// extensions) and the value checks every side applies to it.

package ahpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// SessionConfigPropertySchema describes one configuration property.
// Enum values are kept raw (any JSON primitive); EnumLabels and
// EnumDescriptions are parallel to Enum.
type SessionConfigPropertySchema struct {
	Type             string            `json:"type"`
	Title            string            `json:"title"`
	Description      string            `json:"description,omitempty"`
	Default          json.RawMessage   `json:"default,omitempty"`
	Enum             []json.RawMessage `json:"enum,omitempty"`
	EnumLabels       []string          `json:"enumLabels,omitempty"`
	EnumDescriptions []string          `json:"enumDescriptions,omitempty"`
	ReadOnly         bool              `json:"readOnly,omitempty"`
	EnumDynamic      bool              `json:"enumDynamic,omitempty"`
	SessionMutable   bool              `json:"sessionMutable,omitempty"`
}

// SessionConfigSchema is the object schema of a session's configuration.
// Order keeps the properties in the order the host wrote them (JSON
// objects are unordered for Go maps; forms show them in this order).
type SessionConfigSchema struct {
	Type       string                                 `json:"type"`
	Properties map[string]SessionConfigPropertySchema `json:"properties"`
	Required   []string                               `json:"required,omitempty"`
	Order      []string                               `json:"-"`
}

// UnmarshalJSON decodes the schema and records the property order.
func (s *SessionConfigSchema) UnmarshalJSON(b []byte) error {
	var w struct {
		Type     string          `json:"type"`
		Props    json.RawMessage `json:"properties"`
		Required []string        `json:"required"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = SessionConfigSchema{Type: w.Type, Required: w.Required}
	if len(w.Props) == 0 || bytes.Equal(w.Props, []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(w.Props, &s.Properties); err != nil {
		return err
	}
	order, err := objectKeys(w.Props)
	if err != nil {
		return err
	}
	s.Order = order
	return nil
}

// MarshalJSON writes the properties in display order (Keys).
func (s SessionConfigSchema) MarshalJSON() ([]byte, error) {
	typ := s.Type
	if typ == "" {
		typ = "object"
	}
	var buf bytes.Buffer
	buf.WriteString(`{"type":`)
	t, _ := json.Marshal(typ)
	buf.Write(t)
	buf.WriteString(`,"properties":{`)
	for i, k := range s.Keys() {
		kb, _ := json.Marshal(k)
		pb, err := json.Marshal(s.Properties[k])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(pb)
	}
	buf.WriteByte('}')
	if len(s.Required) > 0 {
		r, _ := json.Marshal(s.Required)
		buf.WriteString(`,"required":`)
		buf.Write(r)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Keys returns the property ids in display order: Order first, then any
// property Order does not name, sorted.
func (s SessionConfigSchema) Keys() []string {
	out := make([]string, 0, len(s.Properties))
	seen := map[string]bool{}
	for _, k := range s.Order {
		if _, ok := s.Properties[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range s.Properties {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// IsRequired reports whether the schema lists id as required.
func (s SessionConfigSchema) IsRequired(id string) bool {
	return slices.Contains(s.Required, id)
}

// DecodeSessionConfigSchema decodes ConfigState.Schema.
func DecodeSessionConfigSchema(raw json.RawMessage) (SessionConfigSchema, error) {
	var s SessionConfigSchema
	if len(raw) == 0 {
		return s, errors.New("ahpwire: empty config schema")
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("ahpwire: config schema: %w", err)
	}
	return s, nil
}

// CheckValue reports why raw is not a valid value of p ("" when it is):
// the JSON type must match p.Type and, with a static enum, be one of its
// values (a dynamic enum's values are only seeds).
func (p SessionConfigPropertySchema) CheckValue(raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("not valid JSON")
	}
	ok := true
	switch p.Type {
	case "string":
		_, ok = v.(string)
	case "number":
		_, ok = v.(float64)
	case "boolean":
		_, ok = v.(bool)
	case "array":
		_, ok = v.([]any)
	case "object":
		_, ok = v.(map[string]any)
	}
	if !ok {
		return fmt.Errorf("must be a %s", p.Type)
	}
	if len(p.Enum) == 0 || p.EnumDynamic {
		return nil
	}
	if p.enumIndex(raw) >= 0 {
		return nil
	}
	return fmt.Errorf("must be one of %s", p.enumList())
}

// EnumLabel returns the display label of enum value raw (the value itself
// when there is no label).
func (p SessionConfigPropertySchema) EnumLabel(raw json.RawMessage) string {
	if i := p.enumIndex(raw); i >= 0 && i < len(p.EnumLabels) && p.EnumLabels[i] != "" {
		return p.EnumLabels[i]
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// CheckConfig reports the first invalid or missing value of values against
// s (unknown keys are refused too).
func (s SessionConfigSchema) CheckConfig(values map[string]json.RawMessage) error {
	for _, k := range s.Keys() {
		v, ok := values[k]
		if !ok {
			if s.IsRequired(k) {
				return fmt.Errorf("%s is required", s.Properties[k].label(k))
			}
			continue
		}
		if err := s.Properties[k].CheckValue(v); err != nil {
			return fmt.Errorf("%s: %w", s.Properties[k].label(k), err)
		}
	}
	for k := range values {
		if _, ok := s.Properties[k]; !ok {
			return fmt.Errorf("unknown setting %q", k)
		}
	}
	return nil
}

func (p SessionConfigPropertySchema) label(id string) string {
	if p.Title != "" {
		return p.Title
	}
	return id
}

func (p SessionConfigPropertySchema) enumList() string {
	var b bytes.Buffer
	for i, e := range p.Enum {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(e)
	}
	return b.String()
}

// enumIndex returns the index of the first enum value semantically equal
// to raw (-1: none): a byte-equal value first, else canonical forms with
// raw decoded once, so a lookup costs one decode per value at most.
func (p SessionConfigPropertySchema) enumIndex(raw json.RawMessage) int {
	i := slices.IndexFunc(p.Enum, func(e json.RawMessage) bool { return bytes.Equal(e, raw) })
	if i >= 0 || len(p.Enum) == 0 {
		return i
	}
	want, ok := canonicalJSON(raw)
	if !ok {
		return -1
	}
	return slices.IndexFunc(p.Enum, func(e json.RawMessage) bool {
		got, ok := canonicalJSON(e)
		return ok && bytes.Equal(got, want)
	})
}

// canonicalJSON re-encodes a JSON value in one canonical form.
func canonicalJSON(raw json.RawMessage) ([]byte, bool) {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return nil, false
	}
	b, err := json.Marshal(x)
	return b, err == nil
}

// objectKeys returns the keys of a JSON object in source order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	var keys []string
	if !jsonscan.Object(raw, func(name []byte, i int) (int, bool) {
		keys = append(keys, string(name))
		return jsonscan.SkipValue(raw, i)
	}) {
		return nil, errors.New("properties must be a valid JSON object")
	}
	return keys, nil
}
