package ahphost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// chatWire reads the chat state through ahpwire's own decoder.
func chatWire(t *testing.T, w *wsClient, chat string) ahpwire.ChatState {
	t.Helper()
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat}), &res))
	st, err := ahpwire.DecodeChatState(res.Snapshot.State)
	must(t, err)
	return st
}

// subscribeTerminal follows a terminal channel until terminal/exited and
// returns the reduced state.
func followTerminal(t *testing.T, w *wsClient, uri string) ahpwire.TerminalState {
	t.Helper()
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": uri}), &res))
	st, err := ahpwire.DecodeTerminalState(res.Snapshot.State)
	must(t, err)
	for st.ExitCode == nil {
		e := w.action("terminal action", func(e envelope) bool { return e.Channel == uri })
		if e.ServerSeq <= res.Snapshot.FromSeq {
			continue
		}
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		st = ahpstate.ReduceTerminal(st, a)
	}
	return st
}

func TestDemoShellVariantsStreamOnTerminalChannels(t *testing.T) {
	for _, c := range []struct {
		prompt        string
		pty, commands bool
	}{
		{"/demo shell", true, true},
		{"/demo shell pty", true, false},
		{"/demo shell plain", false, false},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			_, u := startHost(t, Options{NoToken: true, Pace: time.Millisecond})
			w := dial(t, u, nil)
			w.initialize("c1", []string{ahpwire.RootURI}, nil)
			chat := w.createSession("ahp-session:/s1")
			readChat(t, w, chat, 0)
			w.sendMessage(chat, "t1", c.prompt, 1)
			e := w.actionOfType(chat, ahpwire.ActionChatToolCallContentChanged)
			var cc ahpwire.ChatToolCallContentChanged
			must(t, json.Unmarshal(e.Action, &cc))
			if len(cc.Content) != 1 || cc.Content[0].Type != ahpwire.ContentTerminal || cc.Content[0].IsPty == nil || *cc.Content[0].IsPty != c.pty {
				t.Fatalf("terminal content %+v", cc.Content)
			}
			uri := cc.Content[0].Resource
			st := followTerminal(t, w, uri)
			out := st.Output()
			if *st.ExitCode != 1 || !strings.Contains(out, "--- FAIL") || !strings.Contains(out, "\r\n3000\r\n") {
				t.Fatalf("exit %d, output tail %q", *st.ExitCode, out[max(0, len(out)-300):])
			}
			if hasEsc := strings.Contains(out, "\x1b["); hasEsc != c.pty {
				t.Fatalf("escape sequences present=%v with pty=%v", hasEsc, c.pty)
			}
			var cmds []ahpwire.TerminalContentPart
			for _, p := range st.Content {
				if p.Type == ahpwire.TerminalPartCommand {
					cmds = append(cmds, p)
				}
			}
			if c.commands {
				if len(cmds) != 3 || *cmds[0].ExitCode != 0 || *cmds[2].ExitCode != 1 || !cmds[2].IsComplete || cmds[2].CommandLine != "go test ./..." {
					t.Fatalf("commands %+v", cmds)
				}
			} else if len(cmds) != 0 || st.SupportsCommandDetection != nil {
				t.Fatalf("no command detection expected, got %d parts", len(cmds))
			}
			// The terminal is listed in the root state with its exit code.
			root := w.actionOfType(ahpwire.RootURI, ahpwire.ActionRootTerminalsChanged)
			if !strings.Contains(string(root.Action), uri) {
				t.Fatalf("root terminals %s", root.Action)
			}
			// A client that does not hold the claim cannot type into it.
			w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": 2, "action": map[string]any{"type": "terminal/input", "data": "x"}})
			if rej := w.actionOfType(uri, ahpwire.ActionTerminalInput); rej.RejectionReason == "" {
				t.Fatal("terminal/input from a non-claimant was accepted")
			}
		})
	}
}

func TestDemoEditServesResourcesAndReviewableChangeset(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo edit", seq)
	if _, end := driveTurn(t, w, chat, "t1", true, &seq); end.typ() != ahpwire.ActionChatTurnComplete {
		t.Fatalf("turn ended with %s", end.typ())
	}
	st := chatWire(t, w, chat)
	var edits []ahpwire.ToolResultContent
	for _, p := range st.Turns[0].ResponseParts {
		if p.ToolCall != nil && p.ToolCall.Status == ahpwire.ToolCompleted {
			edits = append(edits, p.ToolCall.Result().Content...)
		}
	}
	kinds := map[string]int{}
	for _, c := range edits {
		if c.Type != ahpwire.ContentFileEdit || c.Diff == nil {
			t.Fatalf("content %+v", c)
		}
		fe := ahpwire.FileEdit{Before: c.Before, After: c.After, Diff: c.Diff}
		kinds[fe.Kind()]++
		for _, side := range []*ahpwire.FileEditSide{c.Before, c.After} {
			if side == nil {
				continue
			}
			var res ahpwire.ResourceReadResult
			must(t, json.Unmarshal(w.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: side.Content.URI}), &res))
			if res.Encoding != ahpwire.EncodingUTF8 || int64(len(res.Data)) != *side.Content.SizeHint || res.ContentType != side.Content.ContentType {
				t.Fatalf("%s: encoding %s, %d bytes (hint %d), type %q", side.Content.URI, res.Encoding, len(res.Data), *side.Content.SizeHint, res.ContentType)
			}
		}
	}
	if kinds["created"] != 1 || kinds["deleted"] != 1 || kinds["modified"] != 3 {
		t.Fatalf("edit kinds %v", kinds)
	}
	if code, _ := w.callErr(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: "ahp-content:/nope"}); code != ahpwire.CodeNotFound {
		t.Fatalf("unknown resource: code %d", code)
	}
	var b64 ahpwire.ResourceReadResult
	must(t, json.Unmarshal(w.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: edits[0].After.Content.URI, Encoding: ahpwire.EncodingBase64}), &b64))
	if b64.Encoding != ahpwire.EncodingBase64 {
		t.Fatalf("asked base64, got %s", b64.Encoding)
	}

	if len(st.Changesets) != 1 || st.Changesets[0].Capabilities == nil || st.Changesets[0].Capabilities.Review == nil {
		t.Fatalf("changesets %+v", st.Changesets)
	}
	cs := st.Changesets[0].URITemplate
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": cs}), &res))
	state, err := ahpwire.DecodeChangesetState(res.Snapshot.State)
	must(t, err)
	if state.Status != ahpwire.ChangesetReady || len(state.Files) != 5 {
		t.Fatalf("changeset %s: status %s, %d files", cs, state.Status, len(state.Files))
	}
	id := state.Files[0].ID
	w.notify("dispatchAction", map[string]any{"channel": cs, "clientSeq": 10, "action": ahpwire.ChangesetFilesReviewChanged{Files: []string{id}, Reviewed: true}})
	if e := w.actionOfType(cs, ahpwire.ActionChangesetFilesReviewChanged); e.RejectionReason != "" {
		t.Fatalf("review rejected: %s", e.RejectionReason)
	}
	w.notify("dispatchAction", map[string]any{"channel": cs, "clientSeq": 11, "action": ahpwire.ChangesetCleared{}})
	if e := w.actionOfType(cs, ahpwire.ActionChangesetCleared); e.RejectionReason == "" {
		t.Fatal("a client cleared a changeset")
	}
	w2 := dial(t, u, nil)
	w2.initialize("c2", nil, nil)
	must(t, json.Unmarshal(w2.call("subscribe", map[string]any{"channel": cs}), &res))
	state, _ = ahpwire.DecodeChangesetState(res.Snapshot.State)
	if !state.Files[0].IsReviewed() || state.Files[1].IsReviewed() || len(state.Files) != 5 {
		t.Fatalf("after review: %+v", state.Files[:2])
	}
	if code, _ := w.callErr("subscribe", map[string]any{"channel": "ahp-terminal:/missing"}); code != ahpwire.CodeNotFound {
		t.Fatalf("missing terminal: code %d", code)
	}
	_ = demo.ShellLines
}
