package ahphost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// startRepl starts a host, a client c1 and "/demo repl" in a new
// session's chat; it returns the client, the host's URL, the chat and the
// terminal's URI.
func startRepl(t *testing.T) (w *wsClient, u, chat, uri string) {
	t.Helper()
	_, u = startHost(t, Options{NoToken: true})
	w = dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat = w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.sendMessage(chat, "t1", "/demo repl", 1)
	e := w.actionOfType(chat, ahpwire.ActionChatToolCallContentChanged)
	var cc ahpwire.ChatToolCallContentChanged
	must(t, json.Unmarshal(e.Action, &cc))
	if len(cc.Content) != 1 || cc.Content[0].Type != ahpwire.ContentTerminal {
		t.Fatalf("content %+v", cc.Content)
	}
	return w, u, chat, cc.Content[0].Resource
}

// TestDemoReplTakesInputFromItsClaimant: "/demo repl" opens a terminal
// backed by the demo's shell (agent.TerminalInputs); a client claims it,
// types, and sees the echo and the answers as terminal/data; another
// client can neither type nor take the claim; `exit 3` ends the terminal,
// the tool call and the turn.
func TestDemoReplTakesInputFromItsClaimant(t *testing.T) {
	w, u, chat, uri := startRepl(t)
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": uri}), &res))
	st, err := ahpwire.DecodeTerminalState(res.Snapshot.State)
	must(t, err)
	follow := func(until func(ahpwire.TerminalState) bool) {
		t.Helper()
		for !until(st) {
			e := w.action("terminal action", func(e envelope) bool { return e.Channel == uri })
			if e.ServerSeq <= res.Snapshot.FromSeq || e.RejectionReason != "" {
				continue
			}
			a, err := ahpwire.DecodeAction(e.Action)
			must(t, err)
			st = ahpstate.ReduceTerminal(st, a)
		}
	}
	follow(func(st ahpwire.TerminalState) bool { return strings.Contains(st.Output(), "$ ") })

	// Typing before claiming is refused.
	seq := uint64(10)
	dispatch := func(w *wsClient, a any) {
		seq++
		w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": seq, "action": a})
	}
	dispatch(w, map[string]any{"type": "terminal/input", "data": "x"})
	if rej := w.actionOfType(uri, ahpwire.ActionTerminalInput); rej.RejectionReason == "" {
		t.Fatal("terminal/input without the claim was accepted")
	}
	// Claim it, type a command key by key and as a paste.
	dispatch(w, map[string]any{"type": "terminal/claimed", "claim": map[string]any{"kind": "client", "clientId": "c1"}})
	if e := w.actionOfType(uri, ahpwire.ActionTerminalClaimed); e.RejectionReason != "" {
		t.Fatalf("claim rejected: %s", e.RejectionReason)
	}
	for _, k := range []string{"e", "c", "h", "o", " ", "h", "i", "\r", "seq 3\r"} {
		dispatch(w, map[string]any{"type": "terminal/input", "data": k})
	}
	follow(func(st ahpwire.TerminalState) bool { return strings.Contains(st.Output(), "1\r\n2\r\n3\r\n") })
	if out := st.Output(); !strings.Contains(out, "echo hi\r\nhi\r\n") {
		t.Fatalf("no echo and answer in %q", out)
	}

	// Another client can neither type nor take the terminal.
	w2 := dial(t, u, nil)
	w2.initialize("c2", []string{uri}, nil)
	dispatch(w2, map[string]any{"type": "terminal/input", "data": "exit\r"})
	if rej := w2.actionOfType(uri, ahpwire.ActionTerminalInput); rej.RejectionReason == "" {
		t.Fatal("terminal/input from another client was accepted")
	}
	dispatch(w2, map[string]any{"type": "terminal/claimed", "claim": map[string]any{"kind": "client", "clientId": "c2"}})
	if rej := w2.actionOfType(uri, ahpwire.ActionTerminalClaimed); rej.RejectionReason == "" {
		t.Fatal("another client took the claim")
	}

	// exit 3 ends the terminal, the tool call (failed) and the turn.
	dispatch(w, map[string]any{"type": "terminal/input", "data": "exit 3\r"})
	follow(func(st ahpwire.TerminalState) bool { return st.ExitCode != nil })
	if *st.ExitCode != 3 {
		t.Fatalf("exit code %d", *st.ExitCode)
	}
	done := w.actionOfType(chat, ahpwire.ActionChatToolCallComplete)
	var tc ahpwire.ChatToolCallComplete
	must(t, json.Unmarshal(done.Action, &tc))
	if tc.Result.Success || tc.Result.Error == nil {
		t.Fatalf("tool result %+v", tc.Result)
	}
	w.actionOfType(chat, ahpwire.ActionChatTurnComplete)
}
