package dialog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// demoSchemaResult is the host's answer for the demo agent (package tui's
// fakeConfig resolves the same schema; its requests are tested there).
func demoSchemaResult() ahpwire.ResolveSessionConfigResult {
	raw := `{"type":"object","properties":{"model":{"type":"string","title":"Model","enum":["m1","m2"],"enumLabels":["One","Two"],"enumDynamic":true,"sessionMutable":true},` +
		`"mode":{"type":"string","title":"Mode","enum":["agent","plan"],"enumLabels":["Agent","Plan"]},"note":{"type":"string","title":"Note"}},"required":["model","mode","note"]}`
	s, _ := ahpwire.DecodeSessionConfigSchema(json.RawMessage(raw))
	return ahpwire.ResolveSessionConfigResult{Schema: s, Values: map[string]json.RawMessage{"model": json.RawMessage(`"m1"`), "mode": json.RawMessage(`"agent"`)}}
}

// demoValues is the host's answer to a ConfigQueryMsg for the dynamic
// "model" property: the values whose label holds query.
func demoValues(m ConfigQueryMsg) ConfigValuesMsg {
	all := []ahpwire.SessionConfigValueItem{{Value: "m1", Label: "One"}, {Value: "m2", Label: "Two"}, {Value: "m3", Label: "Three (dynamic)"}}
	var out []ahpwire.SessionConfigValueItem
	for _, it := range all {
		if strings.Contains(strings.ToLower(it.Label), strings.ToLower(m.Query)) {
			out = append(out, it)
		}
	}
	return ConfigValuesMsg{Prop: m.Prop, Query: m.Query, Items: out}
}

// keyPress builds a key press from a key name (testkit.KeyPress).
var keyPress = testkit.KeyPress

func TestConfigFormDefaultsValidationAndValues(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	f := NewConfigForm(km.Form, ConfigResolvedMsg{Provider: "demo", Dir: "/tmp/w", Res: demoSchemaResult()}, &st)
	view := ansi.Strip(f.View(&st, 80, 30))
	for _, want := range []string{"New session", "Working directory", "/tmp/w", "Model", "‹ One ›", "Mode", "‹ Agent ›", "Note"} {
		if !strings.Contains(view, want) {
			t.Fatalf("form lacks %q:\n%s", want, view)
		}
	}
	// Value completions replace the dynamic property's choices.
	qs := f.ValueQueries()
	if len(qs) != 1 || qs[0] != (ConfigQueryMsg{Provider: "demo", Dir: "/tmp/w", Prop: "model"}) {
		t.Fatalf("value queries %+v", qs)
	}
	f.SetValues(demoValues(qs[0]))
	f.Update(keyPress("tab"))
	f.Update(keyPress("up"))
	if c := f.fields[1].choices[f.fields[1].cur]; c.label != "Three (dynamic)" {
		t.Fatalf("model choice %+v", c)
	}
	// "note" is required: submit refuses locally.
	_, cmd, _ := f.Update(keyPress("enter"))
	if cmd != nil || !strings.Contains(f.err, "Note is required") {
		t.Fatalf("err %q", f.err)
	}
	f.Update(keyPress("tab"))
	f.Update(keyPress("tab"))
	for _, r := range "hi" {
		f.Update(keyPress(string(r)))
	}
	_, cmd, _ = f.Update(keyPress("enter"))
	sub, ok := cmd().(ConfigSubmitMsg)
	if !ok || sub.Dir != "/tmp/w" || string(sub.Values["model"]) != `"m3"` || string(sub.Values["note"]) != `"hi"` {
		t.Fatalf("submit %+v", sub)
	}
	// The host's refusal (ConfigCheckedMsg with an error) is shown.
	f.Refused("working directory /nope does not exist")
	if v := ansi.Strip(f.View(&st, 80, 30)); !strings.Contains(v, "✗ working directory /nope does not exist") || f.checking {
		t.Fatalf("refusal not shown:\n%s", v)
	}
	if _, _, res := f.Update(keyPress("esc")); res != uikit.ResultClose {
		t.Fatal("esc did not close")
	}
	if DirPath("file:///a%20b") != "/a b" {
		t.Fatalf("path %q", DirPath("file:///a%20b"))
	}
}

func TestConfigFormChecksANewWorkingDirectory(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	f := NewConfigForm(km.Form, ConfigResolvedMsg{Provider: "demo", Dir: "/w", Res: demoSchemaResult()}, &st)
	if _, cmd, _ := f.Update(keyPress("tab")); cmd != nil {
		t.Fatal("an unchanged directory was checked again")
	}
	f.setFocus(0)
	f.Update(keyPress("x"))
	_, cmd, _ := f.Update(keyPress("tab"))
	if cmd == nil {
		t.Fatal("a changed directory was not checked")
	}
	dm := cmd().(ConfigDirMsg)
	if dm.Dir != "/wx" {
		t.Fatalf("checked %q", dm.Dir)
	}
	err := errors.New("working directory /wx does not exist")
	f.DirChecked(ConfigDirCheckedMsg{Dir: dm.Dir, Err: err}, err.Error())
	if v := ansi.Strip(f.View(&st, 80, 30)); !strings.Contains(v, "Working directory: working directory /wx does not exist") {
		t.Fatalf("no error:\n%s", v)
	}
	f.DirChecked(ConfigDirCheckedMsg{Dir: dm.Dir}, "")
	if f.err != "" {
		t.Fatalf("error kept: %q", f.err)
	}
}

func TestConfigFormQueriesDynamicValues(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	f := NewConfigForm(km.Form, ConfigResolvedMsg{Provider: "demo", Dir: "/w", Res: demoSchemaResult()}, &st)
	f.Update(keyPress("tab")) // model: dynamic
	var last ConfigQueryMsg
	for _, r := range "thr" {
		_, cmd, _ := f.Update(keyPress(string(r)))
		last = cmd().(ConfigQueryMsg)
	}
	if last.Prop != "model" || last.Query != "thr" {
		t.Fatalf("query %+v", last)
	}
	stale := demoValues(ConfigQueryMsg{Provider: "demo", Prop: "model", Query: "t"})
	f.SetValues(stale)
	if len(f.fields[1].choices) != 2 {
		t.Fatalf("a stale answer replaced the choices: %+v", f.fields[1].choices)
	}
	f.SetValues(demoValues(last))
	if v := ansi.Strip(f.View(&st, 80, 30)); !strings.Contains(v, "‹ Three (dynamic) ›") || !strings.Contains(v, "filter: thr") || len(f.fields[1].choices) != 1 {
		t.Fatalf("filtered values:\n%s", v)
	}
}
