package keymap

import (
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

func TestNoConflictsInAnyContext(t *testing.T) {
	km := Default()
	km.Demo.DropConnection.SetEnabled(true) // the demo key must not clash either
	for _, c := range km.Contexts() {
		if got := Conflicts(c); len(got) != 0 {
			t.Errorf("context %s: keys bound twice: %v", c.Name, got)
		}
	}
}

func TestConflictsDetectsDuplicates(t *testing.T) {
	c := Context{Name: "x", Bindings: []key.Binding{
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "one")),
		key.NewBinding(key.WithKeys("b", "a"), key.WithHelp("b", "two")),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "off"), key.WithDisabled()),
	}}
	got := Conflicts(c)
	if len(got) != 1 || !slices.Equal(got["a"], []string{"one", "two"}) {
		t.Fatalf("Conflicts = %v, want only a -> [one two]", got)
	}
}

func TestFixedDefaults(t *testing.T) {
	km := Default()
	cases := []struct {
		name string
		b    key.Binding
		keys []string
	}{
		{"send", km.Composer.Send, []string{"enter"}},
		{"newline", km.Composer.Newline, []string{"ctrl+j", "shift+enter"}},
		{"cancel turn", km.Chat.CancelTurn, []string{"esc"}},
		{"quit", km.Global.Quit, []string{"ctrl+c"}},
		{"reconnect now", km.Global.Reconnect, []string{"f5", "alt+w"}},
		{"help", km.Global.Help, []string{"f1"}},
		{"editor", km.Composer.Editor, []string{"ctrl+g", "ctrl+o"}},
		{"history search", km.Composer.HistorySearch, []string{"ctrl+r"}},
		{"resume turn", km.Chat.Resume, []string{"alt+r"}},
		{"session mode", km.Chat.CycleMode, []string{"shift+tab"}},
		{"suspend", km.Global.Suspend, []string{"ctrl+z"}},
		{"switch focus", km.Chat.SwitchFocus, []string{"tab"}},
		{"thinking", km.Chat.CycleThinking, []string{"ctrl+t"}},
		{"approve", km.Approval.Approve, []string{"a", "y"}},
		{"deny", km.Approval.Deny, []string{"d", "n"}},
		{"close help", km.Help.Close, []string{"esc", "q", "?"}},
	}
	for _, c := range cases {
		if !slices.Equal(c.b.Keys(), c.keys) {
			t.Errorf("%s: keys %v, want %v", c.name, c.b.Keys(), c.keys)
		}
	}
}

func TestNoCtrlB(t *testing.T) {
	km := Default()
	km.Demo.DropConnection.SetEnabled(true)
	for _, c := range km.Contexts() {
		for _, b := range c.Bindings {
			if slices.Contains(b.Keys(), "ctrl+b") {
				t.Errorf("context %s binds ctrl+b (tmux prefix): %s", c.Name, b.Help().Desc)
			}
		}
	}
}

func TestGroupsListEveryEnabledBindingOnce(t *testing.T) {
	km := Default()
	groups := km.Groups()
	for _, g := range groups {
		if g.Title == "Demo" {
			t.Fatal("disabled demo bindings must not be listed")
		}
		for _, b := range g.Bindings {
			if !b.Enabled() || b.Help().Key == "" || b.Help().Desc == "" {
				t.Errorf("group %s: binding %v lacks help or is disabled", g.Title, b.Keys())
			}
		}
	}
	km.Demo.DropConnection.SetEnabled(true)
	if gs := km.Groups(); gs[len(gs)-1].Title != "Demo" {
		t.Fatal("enabled demo binding missing from help")
	}
	// Every binding field is reachable from exactly one group.
	total := 0
	for _, g := range km.Groups() {
		total += len(g.Bindings)
	}
	want := 0
	// Every context struct of KeyMap, found by reflection so that a new
	// context cannot be left out of the help overlay.
	rv := reflect.ValueOf(km)
	for i := range rv.NumField() {
		want += len(enabled(bindingsOf(rv.Field(i).Interface())))
	}
	if total != want || total < 50 {
		t.Fatalf("groups list %d bindings, want %d (>= 50)", total, want)
	}
}

func TestDefaultReturnsIndependentCopies(t *testing.T) {
	a, b := Default(), Default()
	a.Composer.Send.SetEnabled(false)
	if !b.Composer.Send.Enabled() {
		t.Fatal("Default shares state between calls")
	}
}

// TestEveryFKeyHasATwin: laptops need Fn for F-keys, so every binding on an
// F-key (but the demo's) has another key too.
func TestEveryFKeyHasATwin(t *testing.T) {
	km := Default()
	for _, g := range km.Groups() {
		for _, b := range g.Bindings {
			keys := b.Keys()
			fkeys := 0
			for _, kk := range keys {
				if len(kk) >= 2 && kk[0] == 'f' && kk[1] >= '0' && kk[1] <= '9' {
					fkeys++
				}
			}
			if fkeys > 0 && fkeys == len(keys) && b.Help().Key != "f1" {
				t.Errorf("group %s: %q is on F-keys only (%v)", g.Title, b.Help().Desc, keys)
			}
		}
	}
}
