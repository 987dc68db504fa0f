package demo

import (
	"strings"
	"testing"
)

// TestCatalogCoversEveryScript: completions and /demo help come from one
// catalog, and it names every script the parser runs (each entry parses to
// its own known script, every script is listed, help shows each usage).
func TestCatalogCoversEveryScript(t *testing.T) {
	seen := map[script]string{}
	help := helpText()
	for _, c := range Commands() {
		cmd := parseCommand(c.Text)
		if cmd.script == scriptUnknown || cmd.bad != "" {
			t.Fatalf("catalog entry %q does not parse to a script (%+v)", c.Text, cmd)
		}
		if other, dup := seen[cmd.script]; dup {
			t.Fatalf("%q and %q run the same script", other, c.Text)
		}
		seen[cmd.script] = c.Text
		if !strings.Contains(help, "| `"+c.Usage+"` | "+c.Help+" |") {
			t.Fatalf("/demo help lacks %q", c.Usage)
		}
	}
	for s := script(0); s <= scriptFlood; s++ {
		if s == scriptUnknown {
			continue
		}
		if s == scriptPlain || s == scriptTerminal { // not /demo commands (help's last row lists !ls, !cat)
			continue
		}
		if _, ok := seen[s]; !ok {
			t.Fatalf("script %d is missing from the catalog (no completion, no help)", s)
		}
	}
}
