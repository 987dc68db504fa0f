package ahphost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chatSnapshot subscribes (or re-reads through a fresh subscribe) and
// returns the chat state.
type chatStateView struct {
	Status     uint32 `json:"status"`
	ActiveTurn *struct {
		ID string `json:"id"`
	} `json:"activeTurn"`
	Turns []struct {
		ID            string `json:"id"`
		State         string `json:"state"`
		ResponseParts []struct {
			Kind      string `json:"kind"`
			Content   string `json:"content"`
			Resumable *bool  `json:"resumable"`
			ToolCall  *struct {
				Status   string `json:"status"`
				ToolName string `json:"toolName"`
				Reason   string `json:"reason"`
				Success  *bool  `json:"success"`
				Content  []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"toolCall"`
		} `json:"responseParts"`
	} `json:"turns"`
	TurnsNextCursor string `json:"turnsNextCursor"`
}

func readChat(t testing.TB, w *wsClient, chat string, view int) chatStateView {
	t.Helper()
	params := map[string]any{"channel": chat}
	if view > 0 {
		params["view"] = map[string]any{"turns": view}
	}
	var res struct {
		Snapshot struct {
			State chatStateView `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", params), &res))
	return res.Snapshot.State
}

// driveTurn reads the chat's envelopes until the turn ends, answering every
// confirmation with approve (or deny) and every input request with accept
// (one submitted answer per question).
// It returns the action types seen and the terminal envelope.
func driveTurn(t testing.TB, w *wsClient, chat, turnID string, approve bool, seq *uint64) ([]string, envelope) {
	t.Helper()
	var types []string
	for {
		e := w.action("turn "+turnID, func(e envelope) bool { return e.Channel == chat })
		types = append(types, e.typ())
		if e.RejectionReason != "" {
			t.Fatalf("unexpected rejection of %s: %s", e.typ(), e.RejectionReason)
		}
		var a map[string]json.RawMessage
		must(t, json.Unmarshal(e.Action, &a))
		dispatch := func(action map[string]any) {
			*seq++
			w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": *seq, "action": action})
		}
		switch e.typ() {
		case "chat/toolCallReady":
			if _, ok := a["confirmed"]; !ok && e.Origin == nil {
				var id string
				must(t, json.Unmarshal(a["toolCallId"], &id))
				act := map[string]any{"type": "chat/toolCallConfirmed", "turnId": turnID, "toolCallId": id, "approved": approve}
				if approve {
					act["confirmed"] = "user-action"
				} else {
					act["reason"] = "denied"
				}
				dispatch(act)
			}
		case "chat/toolCallComplete":
			if string(a["requiresResultConfirmation"]) == "true" {
				var id string
				must(t, json.Unmarshal(a["toolCallId"], &id))
				dispatch(map[string]any{"type": "chat/toolCallResultConfirmed", "turnId": turnID, "toolCallId": id, "approved": approve})
			}
		case "chat/inputRequested":
			dispatch(inputAnswers(t, e.Action))
		case "chat/turnComplete", "chat/error", "chat/turnCancelled":
			return types, e
		}
	}
}

// inputAnswers builds a chat/inputCompleted accepting a request with one
// submitted answer per question.
func inputAnswers(t testing.TB, action json.RawMessage) map[string]any {
	t.Helper()
	var a struct {
		Request struct {
			ID        string `json:"id"`
			Questions []struct {
				ID      string `json:"id"`
				Kind    string `json:"kind"`
				Options []struct {
					ID string `json:"id"`
				} `json:"options"`
			} `json:"questions"`
		} `json:"request"`
	}
	must(t, json.Unmarshal(action, &a))
	answers := map[string]any{}
	for _, q := range a.Request.Questions {
		var v map[string]any
		switch q.Kind {
		case "number", "integer":
			v = map[string]any{"kind": "number", "value": 3}
		case "boolean":
			v = map[string]any{"kind": "boolean", "value": true}
		case "single-select":
			v = map[string]any{"kind": "selected", "value": q.Options[0].ID}
		case "multi-select":
			v = map[string]any{"kind": "selected-many", "value": []string{q.Options[0].ID}}
		default:
			v = map[string]any{"kind": "text", "value": "answer"}
		}
		answers[q.ID] = map[string]any{"state": "submitted", "value": v}
	}
	return map[string]any{"type": "chat/inputCompleted", "requestId": a.Request.ID, "response": "accept", "answers": answers}
}

func TestPlainTurnBroadcastAndEcho(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("# hello\n"), 0o644))
	_, u := startHost(t, Options{NoToken: true, Dir: dir})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	obs := dial(t, u, nil)
	obs.initialize("c2", []string{"ahp-root://", chat}, nil)

	w.sendMessage(chat, "t1", "Explain the project layout", 7)
	var seqs []uint64
	var types []string
	for {
		e := w.action("turn", func(e envelope) bool { return e.Channel == chat })
		if len(seqs) == 0 {
			if e.typ() != "chat/turnStarted" || e.Origin == nil || e.Origin.ClientID != "c1" || e.Origin.ClientSeq != 7 {
				t.Fatalf("first envelope is not the echo: %+v %s", e.Origin, e.Action)
			}
		} else if e.Origin != nil {
			t.Fatalf("server action with origin: %s", e.Action)
		}
		if len(seqs) > 0 && e.ServerSeq <= seqs[len(seqs)-1] {
			t.Fatalf("serverSeq not increasing: %d after %d", e.ServerSeq, seqs[len(seqs)-1])
		}
		// The observer sees the same envelope with the same seq.
		o := obs.action("observer", func(o envelope) bool { return o.Channel == chat })
		if o.ServerSeq != e.ServerSeq || string(o.Action) != string(e.Action) {
			t.Fatalf("observer got %d %s, subscriber %d %s", o.ServerSeq, o.Action, e.ServerSeq, e.Action)
		}
		seqs = append(seqs, e.ServerSeq)
		types = append(types, e.typ())
		if e.typ() == "chat/turnComplete" {
			break
		}
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"chat/reasoning", "chat/delta", "chat/toolCallStart", "chat/toolCallComplete"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("turn lacks %s: %s", want, joined)
		}
	}
	// Root subscribers learn about the new title and the status changes.
	var sawTitle, sawInProgress bool
	for !(sawTitle && sawInProgress) {
		m := obs.waitFor("root/sessionSummaryChanged", func(m wire) bool { return m.Method == "root/sessionSummaryChanged" })
		var p struct {
			Session string `json:"session"`
			Changes struct {
				Title  *string `json:"title"`
				Status *uint32 `json:"status"`
			} `json:"changes"`
		}
		must(t, json.Unmarshal(m.Params, &p))
		if p.Session != "ahp-session:/s1" {
			t.Fatalf("summary change for %s", p.Session)
		}
		sawTitle = sawTitle || (p.Changes.Title != nil && *p.Changes.Title == "Explain the project layout")
		sawInProgress = sawInProgress || (p.Changes.Status != nil && *p.Changes.Status&8 != 0)
	}
	st := readChat(t, obs, chat, 0)
	if st.ActiveTurn != nil || len(st.Turns) != 1 || st.Turns[0].State != "complete" {
		t.Fatalf("final state %+v", st)
	}
	kinds := ""
	for _, p := range st.Turns[0].ResponseParts {
		kinds += p.Kind + " "
	}
	if !strings.HasPrefix(kinds, "reasoning ") || !strings.Contains(kinds, "toolCall") || !strings.Contains(kinds, "markdown") {
		t.Fatalf("parts %q", kinds)
	}
	// The session got titled after the first message and went idle.
	var list struct {
		Items []struct {
			Title  string `json:"title"`
			Status uint32 `json:"status"`
		} `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": "ahp-root://"}), &list))
	if len(list.Items) != 1 || list.Items[0].Title != "Explain the project layout" || list.Items[0].Status&31 != 1 {
		t.Fatalf("summary %+v", list.Items)
	}
}

func TestValidationRejections(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	turn := func(id string) map[string]any {
		return map[string]any{"type": "chat/turnStarted", "turnId": id, "startedAt": "2026-11-22T00:00:00.000Z",
			"message": map[string]any{"text": "hi", "origin": map[string]any{"kind": "user"}}}
	}
	tests := []struct {
		name    string
		channel string
		action  map[string]any
		reason  string // substring of rejectionReason
	}{
		{"cancel without active turn", chat, map[string]any{"type": "chat/turnCancelled", "turnId": "t0", "duration": 0}, "no active turn"},
		{"confirm unknown tool call", chat, map[string]any{"type": "chat/toolCallConfirmed", "turnId": "t0", "toolCallId": "x", "approved": true, "confirmed": "user-action"}, ""},
		{"resume a turn that did not fail", chat, map[string]any{"type": "chat/turnResume", "turnId": "t0"}, "resumable"},
		{"server-only action", chat, map[string]any{"type": "chat/delta", "turnId": "t0", "partId": "p", "content": "x"}, "dispatch"},
		{"agent-origin message", chat, map[string]any{"type": "chat/turnStarted", "turnId": "t9", "startedAt": "2026-11-22T00:00:00.000Z",
			"message": map[string]any{"text": "hi", "origin": map[string]any{"kind": "agent"}}}, ""},
		{"remove unknown queued message", chat, map[string]any{"type": "chat/pendingMessageRemoved", "kind": "queued", "id": "nope"}, "nope"},
		{"complete unknown input request", chat, map[string]any{"type": "chat/inputCompleted", "requestId": "r", "response": "accept"}, ""},
		{"unknown action type", chat, map[string]any{"type": "x-custom/thing"}, ""},
		{"session action not dispatchable", "ahp-session:/s1", map[string]any{"type": "session/ready"}, ""},
		{"empty session title", "ahp-session:/s1", map[string]any{"type": "session/titleChanged", "title": " "}, "title"},
		{"root action not dispatchable", "ahp-root://", map[string]any{"type": "root/agentsChanged", "agents": []any{}}, ""},
	}
	seq := uint64(100)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seq++
			w.notify("dispatchAction", map[string]any{"channel": tc.channel, "clientSeq": seq, "action": tc.action})
			e := w.action("echo", func(e envelope) bool { return e.Origin != nil && e.Origin.ClientSeq == seq })
			if e.RejectionReason == "" || !strings.Contains(e.RejectionReason, tc.reason) {
				t.Fatalf("rejectionReason %q, want it to contain %q", e.RejectionReason, tc.reason)
			}
			if e.Channel != tc.channel || e.Origin.ClientID != "c1" {
				t.Fatalf("echo %+v", e)
			}
		})
	}
	// Rejected actions were not applied: the chat is still empty and idle.
	st := readChat(t, w, chat, 0)
	if st.ActiveTurn != nil || len(st.Turns) != 0 {
		t.Fatalf("state changed by rejected actions: %+v", st)
	}
	// A second turn while one is active is rejected; the first is accepted.
	seq++
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": seq, "action": turn("a1")})
	if e := w.action("first", func(e envelope) bool { return e.Origin != nil && e.Origin.ClientSeq == seq }); e.RejectionReason != "" {
		t.Fatalf("first turn rejected: %s", e.RejectionReason)
	}
	seq++
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": seq, "action": turn("a2")})
	// The demo agent may already have finished a1; then a2 is accepted.
	e := w.action("second", func(e envelope) bool { return e.Origin != nil && e.Origin.ClientSeq == seq })
	if e.RejectionReason != "" && !strings.Contains(e.RejectionReason, "in progress") {
		t.Fatalf("second turn: %q", e.RejectionReason)
	}
}

func TestUnknownChannelIgnored(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	w.notify("dispatchAction", map[string]any{"channel": "ahp-chat:/nope", "clientSeq": 1,
		"action": map[string]any{"type": "chat/turnCancelled", "turnId": "t", "duration": 0}})
	id := w.request("ping", map[string]any{"channel": "ahp-root://"})
	if m := decodeWire(t, w.next()); m.ID == nil || *m.ID != id {
		t.Fatalf("expected only the ping response, got %+v", m)
	}
}

func TestToolsApproveAndDeny(t *testing.T) {
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprintf("approve=%v", approve), func(t *testing.T) {
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644))
			_, u := startHost(t, Options{NoToken: true, Dir: dir})
			w := dial(t, u, nil)
			w.initialize("c1", nil, nil)
			chat := w.createSession("ahp-session:/s1")
			readChat(t, w, chat, 0)
			seq := uint64(1)
			w.sendMessage(chat, "t1", "/demo tools", seq)
			types, end := driveTurn(t, w, chat, "t1", approve, &seq)
			if end.typ() != "chat/turnComplete" {
				t.Fatalf("turn ended with %s: %v", end.typ(), types)
			}
			st := readChat(t, w, chat, 0)
			var statuses []string
			for _, p := range st.Turns[0].ResponseParts {
				if p.ToolCall != nil {
					statuses = append(statuses, p.ToolCall.ToolName+"="+p.ToolCall.Status+p.ToolCall.Reason)
				}
			}
			got := strings.Join(statuses, " ")
			want := "list_files=completed read_file=completed edit_file=completed run_command=completed"
			if !approve {
				want = "list_files=completed read_file=completed edit_file=cancelleddenied run_command=cancelleddenied"
			}
			if got != want {
				t.Fatalf("tool calls %q, want %q", got, want)
			}
			// The session rolled the confirmations up in inputNeeded and
			// cleared them again.
			set, removed := map[string]bool{}, map[string]bool{}
			for _, raw := range w.pending {
				m := decodeWire(t, raw)
				if m.Method != "action" {
					continue
				}
				var e envelope
				must(t, json.Unmarshal(m.Params, &e))
				var a struct {
					ID      string `json:"id"`
					Request struct {
						ID   string `json:"id"`
						Kind string `json:"kind"`
						Chat string `json:"chat"`
					} `json:"request"`
				}
				must(t, json.Unmarshal(e.Action, &a))
				switch e.typ() {
				case "session/inputNeededSet":
					if a.Request.Kind != "toolConfirmation" || a.Request.Chat != chat {
						t.Fatalf("inputNeededSet %s", e.Action)
					}
					set[a.Request.ID] = true
				case "session/inputNeededRemoved":
					removed[a.ID] = true
				}
			}
			if len(set) < 2 || len(set) != len(removed) {
				t.Fatalf("inputNeeded set %v removed %v", set, removed)
			}
		})
	}
}

func TestCancelStopsAgent(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Pace: 5 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.sendMessage(chat, "t1", "/demo slow", 1)
	w.actionOfType(chat, "chat/delta")
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 2,
		"action": map[string]any{"type": "chat/turnCancelled", "turnId": "t1", "duration": 10}})
	e := w.action("cancel echo", func(e envelope) bool { return e.typ() == "chat/turnCancelled" })
	if e.RejectionReason != "" || e.Origin == nil {
		t.Fatalf("cancel echo %+v", e)
	}
	// Nothing of t1 follows the cancel.
	w.request("ping", map[string]any{"channel": "ahp-root://"})
	time.Sleep(50 * time.Millisecond)
	id := w.request("ping", map[string]any{"channel": "ahp-root://"})
	w.response(id)
	for _, raw := range w.pending {
		m := decodeWire(t, raw)
		if m.Method != "action" {
			continue
		}
		var later envelope
		must(t, json.Unmarshal(m.Params, &later))
		if later.Channel == chat && later.ServerSeq > e.ServerSeq {
			t.Fatalf("action after cancel: %s", clip(m.Params))
		}
	}
	st := readChat(t, w, chat, 0)
	if len(st.Turns) != 1 || st.Turns[0].State != "cancelled" {
		t.Fatalf("state %+v", st)
	}
}

func TestErrorThenResume(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo error", seq)
	_, end := driveTurn(t, w, chat, "t1", true, &seq)
	if end.typ() != "chat/error" || !strings.Contains(string(end.Action), `"resumable":true`) {
		t.Fatalf("end %s", end.Action)
	}
	seq++
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": seq,
		"action": map[string]any{"type": "chat/turnResume", "turnId": "t1"}})
	_, end = driveTurn(t, w, chat, "t1", true, &seq)
	if end.typ() != "chat/turnComplete" {
		t.Fatalf("resumed turn ended with %s", end.Action)
	}
	st := readChat(t, w, chat, 0)
	if len(st.Turns) != 1 || st.Turns[0].State != "complete" {
		t.Fatalf("state %+v", st)
	}
}
