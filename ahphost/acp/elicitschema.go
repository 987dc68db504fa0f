package acp

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// An ACP form elicitation (a restricted JSON Schema: one object of
// primitive properties) becomes an AHP input request: one question per
// property, in the order the agent wrote them. A string property named
// "<q>_custom" beside an enum property q is q's free-form answer (Claude
// Code's AskUserQuestion puts an "Other" box under each question so): it
// becomes the question's allowFreeformInput and its text goes back under
// that name.

// customSuffix names a select question's free-text field.
const customSuffix = "_custom"

// formQuestions maps a form's schema to questions; order lists the
// property names as the agent wrote them (nil: sorted). custom maps a
// question id to the property its free-form text goes back in.
func formQuestions(s sdk.UnstableElicitationSchema, order []string) (qs []ahpwire.ChatInputQuestion, custom map[string]string, err error) {
	names := orderedKeys(s.Properties, order)
	if len(names) > maxElicitFields {
		return nil, nil, fmt.Errorf("the form has %d fields (at most %d)", len(names), maxElicitFields)
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	custom = map[string]string{}
	props := map[string]map[string]any{}
	for _, n := range names {
		p, ok := s.Properties[n].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("field %q is not a schema object", n)
		}
		props[n] = p
	}
	for _, n := range names {
		p := props[n]
		if base, ok := strings.CutSuffix(n, customSuffix); ok && schemaStr(p, "type") == "string" && isChoice(props[base]) {
			custom[base] = n
			continue
		}
		q, err := question(n, p, required[n])
		if err != nil {
			return nil, nil, err
		}
		qs = append(qs, q)
	}
	for i := range qs {
		if _, ok := custom[qs[i].ID]; ok {
			qs[i].AllowFreeformInput = ahpwire.Ptr(true)
		}
	}
	return qs, custom, nil
}

// maxElicitFields bounds the questions of one form.
const maxElicitFields = 64

// question maps one property schema.
func question(id string, p map[string]any, required bool) (ahpwire.ChatInputQuestion, error) {
	q := ahpwire.ChatInputQuestion{ID: id, Title: schemaStr(p, "title"), Message: schemaStr(p, "description")}
	if q.Message == "" {
		q.Message, q.Title = firstNonEmpty(q.Title, id), ""
	}
	if required {
		q.Required = ahpwire.Ptr(true)
	}
	if d, ok := p["default"]; ok {
		q.DefaultValue, _ = json.Marshal(d)
	}
	switch typ := schemaStr(p, "type"); {
	case typ == "string" && isSelect(p):
		q.Kind, q.Options = ahpwire.QuestionSingleSelect, options(p)
	case typ == "array":
		items, _ := p["items"].(map[string]any)
		if !isSelect(items) {
			return q, fmt.Errorf("field %q: an array without choices", id)
		}
		q.Kind, q.Options = ahpwire.QuestionMultiSelect, options(items)
		q.Min, q.Max = schemaNum(p, "minItems"), schemaNum(p, "maxItems")
	case typ == "string":
		q.Kind, q.Format = ahpwire.QuestionText, schemaStr(p, "format")
		q.Min, q.Max = schemaNum(p, "minLength"), schemaNum(p, "maxLength")
	case typ == "number" || typ == "integer":
		q.Kind = ahpwire.QuestionNumber
		if typ == "integer" {
			q.Kind = ahpwire.QuestionInteger
		}
		q.Min, q.Max = schemaNum(p, "minimum"), schemaNum(p, "maximum")
	case typ == "boolean":
		q.Kind = ahpwire.QuestionBoolean
	default:
		return q, fmt.Errorf("field %q has type %q", id, typ)
	}
	return q, nil
}

// isSelect reports whether p offers choices (oneOf/anyOf of consts, enum).
func isSelect(p map[string]any) bool {
	return p != nil && (p["oneOf"] != nil || p["anyOf"] != nil || p["enum"] != nil)
}

// isChoice reports whether p is a select question: choices of a string,
// or an array of choices.
func isChoice(p map[string]any) bool {
	if schemaStr(p, "type") == "array" {
		items, _ := p["items"].(map[string]any)
		return isSelect(items)
	}
	return schemaStr(p, "type") == "string" && isSelect(p)
}

// options lists p's choices: titled consts (oneOf/anyOf), else enum
// values with their enumNames.
func options(p map[string]any) []ahpwire.ChatInputOption {
	var out []ahpwire.ChatInputOption
	for _, k := range []string{"oneOf", "anyOf"} {
		l, _ := p[k].([]any)
		for _, o := range l {
			m, ok := o.(map[string]any)
			if !ok {
				continue
			}
			id := fmt.Sprint(m["const"])
			out = append(out, ahpwire.ChatInputOption{ID: id, Label: firstNonEmpty(schemaStr(m, "title"), id), Description: schemaStr(m, "description")})
		}
	}
	if len(out) > 0 {
		return out
	}
	vals, _ := p["enum"].([]any)
	names, _ := p["enumNames"].([]any)
	for i, v := range vals {
		id := fmt.Sprint(v)
		label := id
		if i < len(names) {
			label = firstNonEmpty(fmt.Sprint(names[i]), id)
		}
		out = append(out, ahpwire.ChatInputOption{ID: id, Label: label})
	}
	return out
}

// formContent maps the submitted answers back to the form's content: each
// answer under its property, a select question's free-form text under its
// "_custom" property. Skipped and unanswered questions are left out.
func formContent(qs []ahpwire.ChatInputQuestion, custom map[string]string, answers map[string]ahpwire.ChatInputAnswer) map[string]any {
	content := map[string]any{}
	for _, q := range qs {
		a, ok := answers[q.ID]
		if !ok || a.State == ahpwire.AnswerSkipped {
			if ok && custom[q.ID] != "" && len(a.FreeformValues) > 0 {
				content[custom[q.ID]] = strings.Join(a.FreeformValues, ", ")
			}
			continue
		}
		free := a.FreeformValues
		if a.Value != nil {
			free = append(free, a.Value.FreeformValues...)
			if v, ok := answerValue(q, *a.Value); ok {
				content[q.ID] = v
			} else if t := a.Value.Text(); t != "" && custom[q.ID] != "" {
				free = append(free, t) // a select answered in its own words
			}
		}
		if c := custom[q.ID]; c != "" && len(free) > 0 {
			content[c] = strings.Join(free, ", ")
		}
	}
	return content
}

// answerValue is one answer as the schema's type wants it.
func answerValue(q ahpwire.ChatInputQuestion, v ahpwire.ChatInputAnswerValue) (any, bool) {
	switch v.Kind {
	case ahpwire.AnswerValueText:
		if q.Kind == ahpwire.QuestionSingleSelect || q.Kind == ahpwire.QuestionMultiSelect {
			return nil, false
		}
		return v.Text(), true
	case ahpwire.AnswerValueNumber:
		f := v.Number()
		if q.Kind == ahpwire.QuestionInteger && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
		return f, true
	case ahpwire.AnswerValueBoolean:
		return v.Bool(), true
	case ahpwire.AnswerValueSelected:
		var s string
		return s, json.Unmarshal(v.Value, &s) == nil
	case ahpwire.AnswerValueSelectedMany:
		var l []string
		return l, json.Unmarshal(v.Value, &l) == nil
	}
	return nil, false
}

// orderedKeys lists props' keys in order's order, then any others sorted.
func orderedKeys(props map[string]any, order []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range order {
		if _, ok := props[k]; ok && !seen[k] {
			out, seen[k] = append(out, k), true
		}
	}
	var rest []string
	for k := range props {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func schemaStr(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func schemaNum(m map[string]any, k string) *float64 {
	if f, ok := m[k].(float64); ok {
		return &f
	}
	return nil
}
