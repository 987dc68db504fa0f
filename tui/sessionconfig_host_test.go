package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
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

// TestConfigHostResolvesAndChecks: the form's schema comes from
// resolveSessionConfig, each dynamic property's values from
// sessionConfigCompletions, and the filled form is checked with the host,
// which may refuse it (the form itself: dialog/sessionconfig_test.go).
func TestConfigHostResolvesAndChecks(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	be := &fakeConfig{}
	msg := resolveConfigCmd(context.Background(), be, "demo", "/tmp/w")().(dialog.ConfigResolvedMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	if msg.Provider != "demo" || msg.Dir != "/tmp/w" || len(msg.Res.Schema.Keys()) != 3 {
		t.Fatalf("resolved %+v", msg)
	}
	f := dialog.NewConfigForm(km.Form, msg, &st)
	vm := valueCmds(context.Background(), be, f)().(dialog.ConfigValuesMsg)
	if vm.Prop != "model" || vm.Query != "" || len(vm.Items) != 3 || vm.Items[2].Label != "Three (dynamic)" {
		t.Fatalf("values %+v", vm)
	}
	sub := dialog.ConfigSubmitMsg{Provider: "demo", Dir: "/tmp/w", Values: map[string]json.RawMessage{
		"model": json.RawMessage(`"m3"`), "mode": json.RawMessage(`"agent"`), "note": json.RawMessage(`"hi"`)}}
	checked := checkConfigCmd(context.Background(), be, sub)().(dialog.ConfigCheckedMsg)
	if checked.Err != nil || string(checked.Values["mode"]) != `"agent"` {
		t.Fatalf("checked %+v", checked)
	}
	be.dirErr = errors.New("working directory /nope does not exist")
	if bad := checkConfigCmd(context.Background(), be, sub)().(dialog.ConfigCheckedMsg); bad.Err == nil {
		t.Fatal("the host's refusal was lost")
	}
	if dirURI("/a b") != "file:///a%20b" || dialog.DirPath("file:///a%20b") != "/a b" {
		t.Fatalf("uri %q path %q", dirURI("/a b"), dialog.DirPath("file:///a%20b"))
	}
}

// TestConfigHostChecksADirectory: a new working directory is checked with
// the host; its refusal and its acceptance reach the form as
// ConfigDirCheckedMsg for that directory.
func TestConfigHostChecksADirectory(t *testing.T) {
	be := &fakeConfig{}
	dm := dialog.ConfigDirMsg{Provider: "demo", Dir: "/wx"}
	be.dirErr = errors.New("working directory /wx does not exist")
	bad := checkDirCmd(context.Background(), be, dm)().(dialog.ConfigDirCheckedMsg)
	if bad.Dir != "/wx" || bad.Err == nil || app.ErrText(bad.Err) != "working directory /wx does not exist" {
		t.Fatalf("refusal %+v", bad)
	}
	be.dirErr = nil
	if ok := checkDirCmd(context.Background(), be, dm)().(dialog.ConfigDirCheckedMsg); ok.Dir != "/wx" || ok.Err != nil {
		t.Fatalf("acceptance %+v", ok)
	}
	if checkDirCmd(context.Background(), be, dialog.ConfigDirMsg{Provider: "demo"}) != nil {
		t.Fatal("an empty directory was checked")
	}
}

// TestConfigHostQueriesValues: a dynamic property's values matching the
// typed filter, answered for that filter (a stale answer is told apart).
func TestConfigHostQueriesValues(t *testing.T) {
	be := &fakeConfig{}
	vm := queryValuesCmd(context.Background(), be, dialog.ConfigQueryMsg{Provider: "demo", Prop: "model", Query: "thr"})().(dialog.ConfigValuesMsg)
	if vm.Prop != "model" || vm.Query != "thr" || len(vm.Items) != 1 || vm.Items[0].Label != "Three (dynamic)" {
		t.Fatalf("values %+v", vm)
	}
	if stale := queryValuesCmd(context.Background(), be, dialog.ConfigQueryMsg{Provider: "demo", Prop: "model", Query: "t"})().(dialog.ConfigValuesMsg); stale.Query != "t" || len(stale.Items) != 2 {
		t.Fatalf("stale values %+v", stale)
	}
}
