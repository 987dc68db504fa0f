package ahpstate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestConfigChangedValidation(t *testing.T) {
	schema := `{"type":"object","properties":{"model":{"type":"string","title":"Model","enum":["m1","m2"],"sessionMutable":true},` +
		`"dir":{"type":"string","title":"Dir"}}}`
	s := ahpwire.SessionState{Config: &ahpwire.ConfigState{Schema: json.RawMessage(schema),
		Values: map[string]json.RawMessage{"model": json.RawMessage(`"m1"`), "dir": json.RawMessage(`"/x"`)}}}
	change := func(k, v string) error {
		return ValidateSessionAction(s, &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{k: json.RawMessage(v)}}, "c1")
	}
	if err := change("model", `"m2"`); err != nil {
		t.Fatalf("mutable change refused: %v", err)
	}
	for _, c := range []struct{ k, v, want string }{
		{"model", `"m9"`, "must be one of"},
		{"dir", `"/y"`, "cannot be changed"},
		{"nope", `1`, "unknown setting"},
	} {
		if err := change(c.k, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%s: %v, want %q", c.k, c.v, err, c.want)
		}
	}
	if err := change("dir", `"/x"`); err != nil {
		t.Fatalf("re-sending the current value of an immutable setting: %v", err)
	}
	s2 := s
	s2.Config = nil
	if err := ValidateSessionAction(s2, &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"model": json.RawMessage(`"m2"`)}}, "c1"); err == nil {
		t.Fatal("config change without config accepted")
	}
}
