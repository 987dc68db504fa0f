package dialog

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// TestConfigFormHugeEnum: a hostile schema with 1e5 labelled values builds
// the form in one pass, cycles through at most maxEnumChoices of them, and
// typing filters the rest; the current value stays selected (issue 24
// item 9).
func TestConfigFormHugeEnum(t *testing.T) {
	const n = 100_000
	var enum, labels strings.Builder
	for i := range n {
		if i > 0 {
			enum.WriteByte(',')
			labels.WriteByte(',')
		}
		enum.WriteString(`"v` + strconv.Itoa(i) + `"`)
		labels.WriteString(`"Label ` + strconv.Itoa(i) + `"`)
	}
	raw := `{"type":"object","properties":{"model":{"type":"string","title":"Model","enum":[` + enum.String() +
		`],"enumLabels":[` + labels.String() + `]}}}`
	s, err := ahpwire.DecodeSessionConfigSchema(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	st := uikit.NewStyles(render.StylesFor(true))
	msg := ConfigResolvedMsg{Provider: "p", Res: ahpwire.ResolveSessionConfigResult{Schema: s,
		Values: map[string]json.RawMessage{"model": json.RawMessage(`"v77777"`)}}}
	f := NewConfigForm(keymap.Default().Form, msg, &st)
	fl := &f.fields[1]
	if len(fl.choices) > maxEnumChoices || fl.choices[fl.cur].label != "Label 77777" {
		t.Fatalf("%d choices, current %q", len(fl.choices), fl.choices[fl.cur].label)
	}
	f.setFocus(1)
	for _, r := range "99998" {
		f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if fl.choices[fl.cur].label != "Label 99998" || !strings.Contains(ansi.Strip(f.View(&st, 100, 30)), "filter: 99998") {
		t.Fatalf("filter: %q, %d choices", fl.choices[fl.cur].label, len(fl.choices))
	}
	f.fields[0].text.SetValue("/tmp")
	if _, vals, problem := f.values(); problem != "" || string(vals["model"]) != `"v99998"` {
		t.Fatalf("values %s %q", vals["model"], problem)
	}
}
