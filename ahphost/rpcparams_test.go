package ahphost

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestParamsPrologue: every request handler decodes its params through
// withParams — listSessions too, whose params may be absent (all of them
// are optional) but not malformed; a method with required params refuses
// a request without them.
func TestParamsPrologue(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	w.createSession("ahp-session:/s1")
	w.createSession("ahp-session:/s2")

	raw := func(id int, method, params string) wire {
		t.Helper()
		frame := `{"jsonrpc":"2.0","id":` + mustJSON(t, id) + `,"method":` + mustJSON(t, method)
		if params != "" {
			frame += `,"params":` + params
		}
		w.sendRaw(frame + "}")
		return w.response(uint64(id))
	}
	var list ahpwire.ListSessionsResult
	if m := raw(100, "listSessions", ""); m.Error != nil || json.Unmarshal(m.Result, &list) != nil || len(list.Items) != 2 {
		t.Fatalf("listSessions without params: %+v %s", m.Error, m.Result)
	}
	if m := raw(101, "listSessions", `{"limit":1}`); m.Error != nil || json.Unmarshal(m.Result, &list) != nil || len(list.Items) != 1 || list.NextCursor == "" {
		t.Fatalf("listSessions limit 1: %+v %s", m.Error, m.Result)
	}
	for _, bad := range []string{`{"limit":"one"}`, `[1]`, `{"limit":0}`, `{"cursor":"not-a-cursor"}`} {
		if m := raw(102, "listSessions", bad); m.Error == nil || m.Error.Code != ahpwire.CodeInvalidParams {
			t.Fatalf("listSessions %s: %+v %s", bad, m.Error, m.Result)
		}
	}
	if m := raw(103, "createSession", ""); m.Error == nil || m.Error.Code != ahpwire.CodeInvalidParams {
		t.Fatalf("createSession without params: %+v", m.Error)
	}
}
