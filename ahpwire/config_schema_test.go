package ahpwire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSessionConfigSchemaKeepsOrderAndChecksValues(t *testing.T) {
	raw := `{"type":"object","properties":{"zeta":{"type":"string","title":"Zeta","enum":["a","b"]},` +
		`"alpha":{"type":"boolean","title":"Alpha"},"mid":{"type":"string","title":"Mid","enum":["x"],"enumDynamic":true}},"required":["zeta"]}`
	s, err := DecodeSessionConfigSchema(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Keys(), ","); got != "zeta,alpha,mid" {
		t.Fatalf("order %s", got)
	}
	out, err := json.Marshal(s)
	if err != nil || !strings.HasPrefix(string(out), `{"type":"object","properties":{"zeta":`) {
		t.Fatalf("marshal %s %v", out, err)
	}
	cases := []struct {
		values map[string]json.RawMessage
		want   string
	}{
		{map[string]json.RawMessage{"zeta": json.RawMessage(`"a"`)}, ""},
		{map[string]json.RawMessage{}, "Zeta is required"},
		{map[string]json.RawMessage{"zeta": json.RawMessage(`"c"`)}, `must be one of "a", "b"`},
		{map[string]json.RawMessage{"zeta": json.RawMessage(`1`)}, "must be a string"},
		{map[string]json.RawMessage{"zeta": json.RawMessage(`"a"`), "alpha": json.RawMessage(`"yes"`)}, "must be a boolean"},
		{map[string]json.RawMessage{"zeta": json.RawMessage(`"a"`), "mid": json.RawMessage(`"anything"`)}, ""},
		{map[string]json.RawMessage{"zeta": json.RawMessage(`"a"`), "other": json.RawMessage(`1`)}, "unknown setting"},
	}
	for _, c := range cases {
		err := s.CheckConfig(c.values)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: unexpected %v", c.values, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: got %v, want %q", c.values, err, c.want)
		}
	}
	if l := s.Properties["zeta"].EnumLabel(json.RawMessage(`"b"`)); l != "b" {
		t.Fatalf("label %q", l)
	}
}
