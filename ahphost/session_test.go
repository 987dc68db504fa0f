package ahphost

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestSessionLifecycle(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	observer := dial(t, u, nil)
	observer.initialize("c2", []string{"ahp-root://"}, nil)

	chat := w.createSession("ahp-session:/s1")
	if chat != "ahp-chat:/s1" {
		t.Fatalf("default chat %q", chat)
	}
	for _, c := range []*wsClient{w, observer} {
		added := c.waitFor("root/sessionAdded", func(m wire) bool { return m.Method == "root/sessionAdded" })
		var p struct {
			Channel string `json:"channel"`
			Summary struct {
				Resource    string `json:"resource"`
				Provider    string `json:"provider"`
				DefaultChat string `json:"defaultChat"`
			} `json:"summary"`
		}
		must(t, json.Unmarshal(added.Params, &p))
		if p.Channel != "ahp-root://" || p.Summary.Resource != "ahp-session:/s1" || p.Summary.Provider != "demo" || p.Summary.DefaultChat != chat {
			t.Fatalf("sessionAdded %s", added.Params)
		}
		e := c.actionOfType("ahp-root://", "root/activeSessionsChanged")
		if string(e.Action) != `{"type":"root/activeSessionsChanged","activeSessions":1}` {
			t.Fatalf("activeSessionsChanged %s", e.Action)
		}
	}

	errTests := []struct {
		name   string
		method string
		params map[string]any
		code   int
	}{
		{"taken session URI", "createSession", map[string]any{"channel": "ahp-session:/s1"}, -32003},
		{"bad session URI", "createSession", map[string]any{"channel": "ahp-chat:/x"}, -32602},
		{"unknown provider", "createSession", map[string]any{"channel": "ahp-session:/s9", "provider": "nope"}, -32002},
		{"subscribe unknown session", "subscribe", map[string]any{"channel": "ahp-session:/none"}, -32001},
		{"subscribe unknown chat", "subscribe", map[string]any{"channel": "ahp-chat:/none"}, -32008},
		{"subscribe bad scheme", "subscribe", map[string]any{"channel": "file:///etc"}, -32602},
		{"createChat taken", "createChat", map[string]any{"channel": "ahp-session:/s1", "chat": chat}, -32010},
		{"createChat unknown session", "createChat", map[string]any{"channel": "ahp-session:/zz", "chat": "ahp-chat:/n"}, -32001},
		{"dispose unknown session", "disposeSession", map[string]any{"channel": "ahp-session:/zz"}, -32001},
		{"dispose unknown chat", "disposeChat", map[string]any{"channel": "ahp-chat:/zz"}, -32008},
		{"listSessions bad cursor", "listSessions", map[string]any{"channel": "ahp-root://", "cursor": "!!"}, -32602},
		{"fetchTurns bad cursor", "fetchTurns", map[string]any{"channel": chat, "cursor": "eA"}, -32602},
	}
	for _, tc := range errTests {
		t.Run(tc.name, func(t *testing.T) {
			if code, m := w.callErr(tc.method, tc.params); code != tc.code {
				t.Fatalf("code %d, want %d (%+v)", code, tc.code, m.Error)
			}
		})
	}

	// createChat announces session/chatAdded before replying.
	w.call("createChat", map[string]any{"channel": "ahp-session:/s1", "chat": "ahp-chat:/side"})
	e := w.actionOfType("ahp-session:/s1", "session/chatAdded")
	if !json.Valid(e.Action) || e.Origin != nil {
		t.Fatalf("chatAdded %+v", e)
	}
	w.call("disposeChat", map[string]any{"channel": "ahp-chat:/side"})
	e = w.actionOfType("ahp-session:/s1", "session/chatRemoved")
	if string(e.Action) != `{"type":"session/chatRemoved","chat":"ahp-chat:/side"}` {
		t.Fatalf("chatRemoved %s", e.Action)
	}

	w.call("disposeSession", map[string]any{"channel": "ahp-session:/s1"})
	for _, c := range []*wsClient{w, observer} {
		rm := c.waitFor("root/sessionRemoved", func(m wire) bool { return m.Method == "root/sessionRemoved" })
		if string(rm.Params) != `{"channel":"ahp-root://","session":"ahp-session:/s1"}` {
			t.Fatalf("sessionRemoved %s", rm.Params)
		}
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": "ahp-root://"}), &list))
	if len(list.Items) != 0 {
		t.Fatalf("sessions after dispose: %d", len(list.Items))
	}
}

func TestListSessionsPaging(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	for i := range 5 {
		w.call("createSession", map[string]any{"channel": fmt.Sprintf("ahp-session:/p%d", i)})
	}
	// Touch p1 so it becomes the most recent.
	w.sendMessage("ahp-chat:/p1", "t1", "hello", 1)
	waitIdle(t, h, "ahp-chat:/p1")

	var got []string
	cursor := ""
	for page := 0; page < 10; page++ {
		params := map[string]any{"channel": "ahp-root://", "limit": 2}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res struct {
			Items []struct {
				Resource string `json:"resource"`
			} `json:"items"`
			NextCursor string `json:"nextCursor"`
		}
		must(t, json.Unmarshal(w.call("listSessions", params), &res))
		if len(res.Items) > 2 {
			t.Fatalf("page of %d items", len(res.Items))
		}
		for _, it := range res.Items {
			got = append(got, it.Resource)
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	want := "[ahp-session:/p1 ahp-session:/p4 ahp-session:/p3 ahp-session:/p2 ahp-session:/p0]"
	if fmt.Sprint(got) != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}

// waitIdle waits until the chat has no active turn.
func waitIdle(t testing.TB, h *Host, chat string) {
	t.Helper()
	waitUntil(t, "chat "+chat+" idle", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		ce := h.st.chats[chat]
		return ce != nil && ce.state.ActiveTurn == nil && ce.run == nil && len(ce.state.Turns) > 0
	})
}
