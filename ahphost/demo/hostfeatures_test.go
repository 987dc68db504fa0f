package demo

import (
	"strings"
	"testing"
)

// Without a host that offers them, the artifact, repl and config scripts
// say so in one answer instead of failing; bad arguments are refused.
func TestHostFeatureScriptsWithoutHostSupport(t *testing.T) {
	for prompt, want := range map[string]string{
		"/demo artifacts":       "keeps no session artifacts",
		"/demo artifacts later": "the only option is `clear`",
		"/demo repl":            "does not let clients type",
		"/demo config":          "cannot change a session's settings",
		"/demo config now":      "the only option is `reset`",
	} {
		rec, err := runTurn(t, testAgent(t.TempDir()), "t1", prompt, false, nil)
		if err != nil {
			t.Fatalf("%s: %v", prompt, err)
		}
		if text := markdownText(rec.actions); !strings.Contains(text, want) {
			t.Errorf("%s: %q lacks %q", prompt, text, want)
		}
	}
}
