package keymap

import (
	"strings"
	"testing"
)

func TestOverride(t *testing.T) {
	km, err := Override(Default(), map[string][]string{"global.quit": {"ctrl+q"}, "Composer.Send": {"f9", "enter"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Global.Quit.Keys(); len(got) != 1 || got[0] != "ctrl+q" || km.Global.Quit.Help().Key != "ctrl+q" {
		t.Fatalf("quit = %v (%q)", got, km.Global.Quit.Help().Key)
	}
	if km.Global.Quit.Help().Desc != Default().Global.Quit.Help().Desc {
		t.Fatal("description lost")
	}
	if Default().Global.Quit.Keys()[0] != "ctrl+c" {
		t.Fatal("Default changed")
	}
	for name, want := range map[string]string{
		"nope.quit":   "no context",
		"global.nope": "no action",
		"quit":        "context.action",
		"global.help": "bound twice",
	} {
		keys := []string{"x"}
		if name == "global.help" {
			keys = []string{"ctrl+c"} // quit's key
		}
		if _, err := Override(Default(), map[string][]string{name: keys}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", name, err, want)
		}
	}
}
