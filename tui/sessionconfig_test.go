package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

func demoSchemaResult() ahpwire.ResolveSessionConfigResult {
	raw := `{"type":"object","properties":{"model":{"type":"string","title":"Model","enum":["m1","m2"],"enumLabels":["One","Two"],"enumDynamic":true,"sessionMutable":true},` +
		`"mode":{"type":"string","title":"Mode","enum":["agent","plan"],"enumLabels":["Agent","Plan"]},"note":{"type":"string","title":"Note"}},"required":["model","mode","note"]}`
	s, _ := ahpwire.DecodeSessionConfigSchema(json.RawMessage(raw))
	return ahpwire.ResolveSessionConfigResult{Schema: s, Values: map[string]json.RawMessage{"model": json.RawMessage(`"m1"`), "mode": json.RawMessage(`"agent"`)}}
}

type fakeConfig struct {
	fakeBackend
	dirErr error
}

func (f *fakeConfig) ResolveSessionConfig(_ context.Context, p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	if f.dirErr != nil && p.WorkingDirectory != "" {
		return ahpwire.ResolveSessionConfigResult{}, f.dirErr
	}
	r := demoSchemaResult()
	for k, v := range p.Config {
		r.Values[k] = v
	}
	return r, nil
}

func (f *fakeConfig) SessionConfigCompletions(_ context.Context, p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	all := []ahpwire.SessionConfigValueItem{{Value: "m1", Label: "One"}, {Value: "m2", Label: "Two"}, {Value: "m3", Label: "Three (dynamic)"}}
	var out []ahpwire.SessionConfigValueItem
	for _, it := range all {
		if strings.Contains(strings.ToLower(it.Label), strings.ToLower(p.Query)) {
			out = append(out, it)
		}
	}
	return out, nil
}

func TestConfigFormDefaultsValidationAndValues(t *testing.T) {
	km := keymap.Default()
	st := newStyles(render.StylesFor(true))
	be := &fakeConfig{}
	msg := resolveConfigCmd(context.Background(), be, "demo", "/tmp/w")().(configResolvedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	f := newConfigForm(km.Form, msg, &st)
	view := ansi.Strip(f.View(&st, 80, 30))
	for _, want := range []string{"New session", "Working directory", "/tmp/w", "Model", "‹ One ›", "Mode", "‹ Agent ›", "Note"} {
		if !strings.Contains(view, want) {
			t.Fatalf("form lacks %q:\n%s", want, view)
		}
	}
	// Value completions replace the dynamic property's choices.
	vm := f.valueCmds(context.Background(), be)().(configValuesMsg)
	f.setValues(vm)
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
	sub, ok := cmd().(configSubmitMsg)
	if !ok || sub.dir != "/tmp/w" || string(sub.values["model"]) != `"m3"` || string(sub.values["note"]) != `"hi"` {
		t.Fatalf("submit %+v", sub)
	}
	checked := checkConfigCmd(context.Background(), be, sub)().(configCheckedMsg)
	if checked.err != nil || string(checked.values["mode"]) != `"agent"` {
		t.Fatalf("checked %+v", checked)
	}
	be.dirErr = errors.New("working directory /nope does not exist")
	if bad := checkConfigCmd(context.Background(), be, sub)().(configCheckedMsg); bad.err == nil {
		t.Fatal("the host's refusal was lost")
	}
	if _, _, res := f.Update(keyPress("esc")); res != resultClose {
		t.Fatal("esc did not close")
	}
	if dirURI("/a b") != "file:///a%20b" || dirPath("file:///a%20b") != "/a b" {
		t.Fatalf("uri %q path %q", dirURI("/a b"), dirPath("file:///a%20b"))
	}
}

func TestConfigFormChecksANewWorkingDirectory(t *testing.T) {
	km := keymap.Default()
	st := newStyles(render.StylesFor(true))
	be := &fakeConfig{}
	f := newConfigForm(km.Form, resolveConfigCmd(context.Background(), be, "demo", "/w")().(configResolvedMsg), &st)
	if _, cmd, _ := f.Update(keyPress("tab")); cmd != nil {
		t.Fatal("an unchanged directory was checked again")
	}
	f.setFocus(0)
	f.Update(keyPress("x"))
	_, cmd, _ := f.Update(keyPress("tab"))
	if cmd == nil {
		t.Fatal("a changed directory was not checked")
	}
	dm := cmd().(configDirMsg)
	if dm.dir != "/wx" {
		t.Fatalf("checked %q", dm.dir)
	}
	be.dirErr = errors.New("working directory /wx does not exist")
	f.dirChecked(checkDirCmd(context.Background(), be, dm)().(configDirCheckedMsg))
	if v := ansi.Strip(f.View(&st, 80, 30)); !strings.Contains(v, "Working directory: working directory /wx does not exist") {
		t.Fatalf("no error:\n%s", v)
	}
	be.dirErr = nil
	f.dirChecked(checkDirCmd(context.Background(), be, dm)().(configDirCheckedMsg))
	if f.err != "" {
		t.Fatalf("error kept: %q", f.err)
	}
}

func TestConfigFormQueriesDynamicValues(t *testing.T) {
	km := keymap.Default()
	st := newStyles(render.StylesFor(true))
	be := &fakeConfig{}
	f := newConfigForm(km.Form, resolveConfigCmd(context.Background(), be, "demo", "/w")().(configResolvedMsg), &st)
	f.Update(keyPress("tab")) // model: dynamic
	var last configQueryMsg
	for _, r := range "thr" {
		_, cmd, _ := f.Update(keyPress(string(r)))
		last = cmd().(configQueryMsg)
	}
	if last.prop != "model" || last.query != "thr" {
		t.Fatalf("query %+v", last)
	}
	stale := queryValuesCmd(context.Background(), be, configQueryMsg{provider: "demo", prop: "model", query: "t"})().(configValuesMsg)
	f.setValues(stale)
	if len(f.fields[1].choices) != 2 {
		t.Fatalf("a stale answer replaced the choices: %+v", f.fields[1].choices)
	}
	f.setValues(queryValuesCmd(context.Background(), be, last)().(configValuesMsg))
	if v := ansi.Strip(f.View(&st, 80, 30)); !strings.Contains(v, "‹ Three (dynamic) ›") || !strings.Contains(v, "filter: thr") || len(f.fields[1].choices) != 1 {
		t.Fatalf("filtered values:\n%s", v)
	}
}
