package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// pendingTool waits for the active turn's tool call awaiting confirmation.
func (e *env) pendingTool(k *client2, chat string) *ahpwire.ToolCallState {
	e.t.Helper()
	var tc *ahpwire.ToolCallState
	e.eventually("a pending confirmation", func() bool {
		st := e.chatState(k, chat)
		if st.ActiveTurn == nil {
			return false
		}
		for _, c := range toolCalls(st.ActiveTurn.ResponseParts.Slice()) {
			if c.Status == ahpwire.ToolPendingConfirmation {
				tc = c
				return true
			}
		}
		return false
	})
	return tc
}

// Approvals: the pending confirmation carries the agent's four options with
// its labels and kinds; the chosen option (or the allow-once / reject-once
// option for a plain approve / deny) goes back to the agent.
func TestApprovalOptions(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "approve")
	for _, c := range []struct {
		id       string
		approved bool
		option   string
		want     string
	}{
		{"t-always", true, "always", "chosen: always"},
		{"t-yes", true, "", "chosen: yes"},
		{"t-no", false, "", "chosen: no"},
		{"t-never", false, "never", "chosen: never"},
	} {
		e.prompt(e.c, chat, c.id, "tool")
		tc := e.pendingTool(e.c, chat)
		var got []string
		for _, o := range tc.Options {
			got = append(got, o.ID+"/"+o.Kind+"/"+o.Label)
		}
		if strings.Join(got, ",") != "yes/approve/Allow once,always/approve/Always allow echo,no/deny/Reject,never/deny/Never allow echo" {
			t.Fatalf("options %v", got)
		}
		if tc.DisplayName != "Run echo hello" || tc.ToolName != "execute" || tc.ToolInput == nil || !strings.Contains(tc.ToolInput.Text, "echo hello") {
			t.Fatalf("tool call %+v", tc)
		}
		conf := &ahpwire.ChatToolCallConfirmed{TurnID: c.id, ToolCallID: tc.ToolCallID, Approved: c.approved, SelectedOptionID: c.option}
		if c.approved {
			conf.Confirmed = ahpwire.ConfirmedUserAction
		} else {
			conf.Reason = ahpwire.CancelDenied
		}
		if _, err := e.c.c.Dispatch(e.ctx, chat, conf); err != nil {
			t.Fatal(err)
		}
		turn := e.finished(e.c, chat, c.id)
		if !strings.Contains(markdown(turn), c.want) {
			t.Fatalf("%s: %q, want %q", c.id, markdown(turn), c.want)
		}
		final := toolCalls(turn.ResponseParts)[0]
		if c.approved && (final.Status != ahpwire.ToolCompleted || final.Success == nil || !*final.Success) {
			t.Fatalf("%s: approved tool ended %+v", c.id, final)
		}
		if !c.approved && final.Status != ahpwire.ToolCancelled {
			t.Fatalf("%s: denied tool ended %q", c.id, final.Status)
		}
	}
}

// An agent may report a tool call in_progress and then ask permission for
// it (opencode; Codex sends every apply_patch so): the request still
// becomes a pending confirmation the user answers (it was answered
// "cancelled" unasked), and the answer reaches the agent.
func TestApprovalAfterInProgress(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "running")
	for _, c := range []struct {
		id       string
		approved bool
		want     string
	}{
		{"t-allow", true, "chosen: yes"},
		{"t-deny", false, "chosen: no"},
	} {
		e.prompt(e.c, chat, c.id, "tool running")
		tc := e.pendingTool(e.c, chat)
		if len(tc.Options) != 4 || tc.DisplayName != "Run echo hello" {
			t.Fatalf("%s: pending confirmation %+v", c.id, tc)
		}
		conf := &ahpwire.ChatToolCallConfirmed{TurnID: c.id, ToolCallID: tc.ToolCallID, Approved: c.approved}
		if c.approved {
			conf.Confirmed = ahpwire.ConfirmedUserAction
		} else {
			conf.Reason = ahpwire.CancelDenied
		}
		if _, err := e.c.c.Dispatch(e.ctx, chat, conf); err != nil {
			t.Fatal(err)
		}
		turn := e.finished(e.c, chat, c.id)
		if !strings.Contains(markdown(turn), c.want) {
			t.Fatalf("%s: %q, want %q", c.id, markdown(turn), c.want)
		}
		final := toolCalls(turn.ResponseParts)[0]
		if c.approved && final.Status != ahpwire.ToolCompleted {
			t.Fatalf("%s: approved tool ended %q", c.id, final.Status)
		}
		if !c.approved && final.Status != ahpwire.ToolCancelled {
			t.Fatalf("%s: denied tool ended %q", c.id, final.Status)
		}
	}
}

// Two clients on one session both stream the turn; the first answer wins:
// the second client's later answer is rejected (rejections reach only
// their sender) and never reaches the agent. The clients wait on the
// envelopes they record, never on snapshots (a re-subscribe would drop the
// envelopes its snapshot covers).
func TestTwoClientsFirstAnswerWins(t *testing.T) {
	e := newEnv(t, opts{})
	session, chat := e.newSession(e.c, "two")
	k2 := e.dial()
	if got := e.open(k2, session); got != chat {
		t.Fatalf("second client opened %s, want %s", got, chat)
	}
	seen := func(k *client2, match func(ahpwire.Action) bool) bool {
		for _, en := range k.actions(chat) {
			if match(en.Action) {
				return true
			}
		}
		return false
	}
	e.prompt(e.c, chat, "t1", "tool")
	e.eventually("the confirmation on the second client", func() bool {
		return seen(k2, func(a ahpwire.Action) bool { r, ok := a.(*ahpwire.ChatToolCallReady); return ok && len(r.Options) == 4 })
	})
	if _, err := k2.c.Dispatch(e.ctx, chat, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "t-1",
		Approved: true, Confirmed: ahpwire.ConfirmedUserAction, SelectedOptionID: "yes"}); err != nil {
		t.Fatal(err)
	}
	e.eventually("the first client sees the approval", func() bool {
		return seen(e.c, func(a ahpwire.Action) bool { _, ok := a.(*ahpwire.ChatToolCallConfirmed); return ok })
	})
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "t-1",
		Approved: false, Reason: ahpwire.CancelDenied, SelectedOptionID: "no"}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []*client2{e.c, k2} {
		e.eventually("both clients see the turn end", func() bool {
			return seen(k, func(a ahpwire.Action) bool { _, ok := a.(*ahpwire.ChatTurnComplete); return ok })
		})
		var text, confirmed, rejected int
		for _, en := range k.actions(chat) {
			switch a := en.Action.(type) {
			case *ahpwire.ChatResponsePart, *ahpwire.ChatDelta:
				text++
			case *ahpwire.ChatToolCallConfirmed:
				if en.RejectionReason != "" {
					rejected++
				} else if a.Approved {
					confirmed++
				}
			}
		}
		if text == 0 || confirmed != 1 || rejected != 0 {
			t.Fatalf("a client saw %d text actions, %d accepted and %d rejected confirmations", text, confirmed, rejected)
		}
	}
	turn := e.finished(e.c, chat, "t1")
	if !strings.Contains(markdown(turn), "chosen: yes") {
		t.Fatalf("first answer lost: %q", markdown(turn))
	}
}

// File edits: the write passes through the host (confined to the session
// directory), the tool call shows a fileEdit whose sides resourceRead
// serves, and the chat's changeset lists the file.
func TestDiffAndChangeset(t *testing.T) {
	e := newEnv(t, opts{})
	if err := os.WriteFile(filepath.Join(e.dir, "hello.txt"), []byte("first line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "diff")
	turn := e.run(e.c, chat, "t1", "diff")
	b, err := os.ReadFile(filepath.Join(e.dir, "hello.txt"))
	if err != nil || string(b) != "first line\nhello from the fake agent\n" {
		t.Fatalf("hello.txt = %q, %v", b, err)
	}
	tc := toolCalls(turn.ResponseParts)[0]
	var edit *ahpwire.ToolResultContent
	for i, c := range tc.Content {
		if c.Type == ahpwire.ContentFileEdit {
			edit = &tc.Content[i]
		}
	}
	if edit == nil || edit.Before == nil || edit.After == nil || *edit.Diff.Added != 1 || *edit.Diff.Removed != 0 {
		t.Fatalf("tool content %+v", tc.Content)
	}
	for side, want := range map[*ahpwire.FileEditSide]string{edit.Before: "first line\n", edit.After: "first line\nhello from the fake agent\n"} {
		r, err := e.c.c.ResourceRead(e.ctx, side.Content.URI, "")
		if err != nil || string(r.Data) != want {
			t.Fatalf("resourceRead %s = %q, %v; want %q", side.Content.URI, r.Data, err, want)
		}
	}
	st := e.chatState(e.c, chat)
	if len(st.Changesets) != 1 {
		t.Fatalf("changesets %+v", st.Changesets)
	}
	snap, err := e.c.c.Subscribe(e.ctx, st.Changesets[0].URITemplate, nil)
	if err != nil || !strings.Contains(string(snap.State), "hello.txt") {
		t.Fatalf("changeset %s: %s, %v", st.Changesets[0].URITemplate, snap.State, err)
	}
}

// fs requests outside the working directory are refused: absolute paths
// elsewhere, "..", and symbolic links leading out.
func TestFSConfinement(t *testing.T) {
	e := newEnv(t, opts{})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(e.dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "fs")
	for i, p := range []string{
		"read " + filepath.Join(outside, "secret.txt"),
		"read ../" + filepath.Base(outside) + "/secret.txt",
		"read link/secret.txt",
		"write link/new.txt",
		"write " + filepath.Join(outside, "new.txt"),
		"write sub/../../new.txt",
	} {
		turn := e.run(e.c, chat, "t"+string(rune('a'+i)), p)
		if md := markdown(turn); !strings.Contains(md, "error") || strings.Contains(md, "secret\"") || md == "read: secret" {
			t.Fatalf("%s: %q", p, md)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("a write escaped the working directory")
	}
	turn := e.run(e.c, chat, "tz", "write inside.txt")
	if markdown(turn) != "written" {
		t.Fatalf("write inside: %q", markdown(turn))
	}
}

// Terminals: terminal/create runs in a host pty shown as an ahp-terminal
// channel under its tool call; output, wait_for_exit and release work,
// and the same under the shim (shim.go).
func TestTerminal(t *testing.T) {
	t.Run("direct", func(t *testing.T) { testTerminal(t, false) })
	t.Run("shim", func(t *testing.T) { testTerminal(t, true) })
}

func testTerminal(t *testing.T, shim bool) {
	e := newEnv(t, opts{shim: shim})
	_, chat := e.newSession(e.c, "term")
	turn := e.run(e.c, chat, "t1", "terminal")
	if md := markdown(turn); md != `exit 7, output "hi from the terminal"` {
		t.Fatalf("terminal answer %q", md)
	}
	tc := toolCalls(turn.ResponseParts)[0]
	var uri string
	for _, c := range tc.Content {
		if c.Type == ahpwire.ContentTerminal {
			uri = c.Resource
		}
	}
	if !strings.HasPrefix(uri, ahpwire.TerminalScheme+"/") {
		t.Fatalf("tool content %+v", tc.Content)
	}
	snap, err := e.c.c.Subscribe(e.ctx, uri, nil)
	if err != nil || !strings.Contains(string(snap.State), "hi from the terminal") || !strings.Contains(string(snap.State), `"exitCode":7`) {
		t.Fatalf("terminal %s: %s %v", uri, snap.State, err)
	}
}

// A client can claim an agent's running pty terminal, size it to its view
// and type into it; under the shim too (the command is the terminal's
// foreground: it reads the keys, knows the size).
func TestTypeIntoTerminal(t *testing.T) {
	t.Run("direct", func(t *testing.T) { testTypeIntoTerminal(t, false) })
	t.Run("shim", func(t *testing.T) { testTypeIntoTerminal(t, true) })
}

func testTypeIntoTerminal(t *testing.T, shim bool) {
	e := newEnv(t, opts{shim: shim})
	_, chat := e.newSession(e.c, "typing")
	e.prompt(e.c, chat, "t1", "interactive")
	var uri string
	e.eventually("the terminal under the tool call", func() bool {
		st := e.chatState(e.c, chat)
		if st.ActiveTurn == nil {
			return false
		}
		for _, tc := range toolCalls(st.ActiveTurn.ResponseParts.Slice()) {
			for _, c := range tc.Content {
				if c.Type == ahpwire.ContentTerminal {
					uri = c.Resource
					return true
				}
			}
		}
		return false
	})
	if _, err := e.c.c.Subscribe(e.ctx, uri, nil); err != nil {
		t.Fatal(err)
	}
	me := e.c.c.ClientID()
	if _, err := e.c.c.Dispatch(e.ctx, uri, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: me}}); err != nil {
		t.Fatal(err)
	}
	// The client typing into it sizes it to its view: the pty follows.
	if _, err := e.c.c.Dispatch(e.ctx, uri, &ahpwire.TerminalResized{Cols: 97, Rows: 21}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.c.Dispatch(e.ctx, uri, &ahpwire.TerminalInput{Data: "typed words\r"}); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "t1")
	if md := markdown(turn); !strings.Contains(md, "got typed words") || !strings.Contains(md, "size 21 97") {
		t.Fatalf("%q %q", md, errText(turn))
	}
}

// A tool's text that is one fenced block (Claude Code's adapter fences a
// Read's file, an error, a command's output) shows as its body: AHP tool
// text is plain.
func TestUnfence(t *testing.T) {
	for in, want := range map[string]string{
		"```\n     1→package main\n```": "     1→package main",
		"```console\nok\n```\n":         "ok",
		"````\nhas ``` inside\n````":    "has ``` inside",
		"```\n```":                      "",
		"plain text":                    "plain text",
		"```go\na\n```\nand after":      "```go\na\n```\nand after",
		"```\na\n```\n\n```\nb\n```":    "```\na\n```\n\n```\nb\n```",
		"``not a fence\n``":             "``not a fence\n``",
		"```js`x\ncode\n```":            "```js`x\ncode\n```",
	} {
		if got := unfence(in); got != want {
			t.Errorf("unfence(%q) = %q, want %q", in, got, want)
		}
	}
}

// A denial with a reason reaches the agent: ACP's outcome has no reason, so
// the same turn sends the agent one more prompt with it (shown in the
// transcript), and the agent's answer to it continues the turn. A denial
// without a reason sends nothing more.
func TestDenyReasonReachesAgent(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "reason")
	for _, c := range []struct {
		id, reason string
	}{{"t-reason", "use printf instead"}, {"t-plain", ""}} {
		e.prompt(e.c, chat, c.id, "tool running")
		tc := e.pendingTool(e.c, chat)
		conf := &ahpwire.ChatToolCallConfirmed{TurnID: c.id, ToolCallID: tc.ToolCallID, Reason: ahpwire.CancelDenied}
		if c.reason != "" {
			conf.ReasonMessage = ahpwire.PlainPtr(c.reason)
		}
		if _, err := e.c.c.Dispatch(e.ctx, chat, conf); err != nil {
			t.Fatal(err)
		}
		turn := e.finished(e.c, chat, c.id)
		md := markdown(turn)
		var notes []string
		for _, p := range turn.ResponseParts {
			if p.Kind == ahpwire.PartSystemNotification && p.Notification != nil {
				notes = append(notes, p.Notification.Text)
			}
		}
		want := `Permission denied for "Run echo hello". The user's reason: use printf instead`
		if c.reason == "" {
			if md != "chosen: no" || len(notes) != 0 {
				t.Fatalf("plain denial: %q, notes %q", md, notes)
			}
			continue
		}
		if !strings.Contains(md, "chosen: no") || !strings.Contains(md, "Reason received: denied for \"Run echo hello\". The user's reason: use printf instead") {
			t.Fatalf("the agent's answers: %q", md)
		}
		if len(notes) != 1 || notes[0] != "Sent to the agent: "+want {
			t.Fatalf("notes %q", notes)
		}
		if turn.State != ahpwire.TurnComplete {
			t.Fatalf("turn ended %q", turn.State)
		}
	}
}
