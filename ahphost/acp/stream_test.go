package acp

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// slogTo is a debug logger writing to w.
func slogTo(w *logBuf) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Streaming rows: message chunks → one markdown part; thoughts →
// reasoning; the plan → one checklist tool call updated in place; usage.
func TestStreamingRows(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "stream")

	turn := e.run(e.c, chat, "t-text", "text")
	if turn.State != ahpwire.TurnComplete || markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("text turn: state %q, markdown %q", turn.State, markdown(turn))
	}
	if n := len(turn.ResponseParts); n != 1 {
		t.Fatalf("three chunks made %d parts, want one markdown part", n)
	}

	turn = e.run(e.c, chat, "t-thought", "thought")
	if p := turn.ResponseParts[0]; p.Kind != ahpwire.PartReasoning || p.Content != "Let me think about this." {
		t.Fatalf("first part %q %q, want the reasoning", p.Kind, p.Content)
	}
	if markdown(turn) != "Thought done." {
		t.Fatalf("markdown %q", markdown(turn))
	}

	turn = e.run(e.c, chat, "t-plan", "plan")
	tcs := toolCalls(turn.ResponseParts)
	if len(tcs) != 1 || tcs[0].DisplayName != "Plan" || tcs[0].Status != ahpwire.ToolCompleted {
		t.Fatalf("plan: %d tool calls %+v", len(tcs), tcs)
	}
	if got := tcs[0].Content[0].Text; got != "- [x] Read the code\n- [~] Write the fix\n- [ ] Run the tests\n" {
		t.Fatalf("plan checklist %q, want the updated plan", got)
	}

	turn = e.run(e.c, chat, "t-usage", "usage")
	if turn.Usage == nil || turn.Usage.OutputTokens == nil || *turn.Usage.OutputTokens != 22 || *turn.Usage.InputTokens != 11 {
		t.Fatalf("usage %+v", turn.Usage)
	}
}

// Stop reasons: refusal and max_tokens end the turn with an error saying
// so; a failed tool call is a failed result.
func TestStopReasonsAndFailures(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "stops")
	for _, c := range []struct{ prompt, want string }{
		{"refuse", "refusal"},
		{"maxtokens", "max_tokens"},
	} {
		turn := e.run(e.c, chat, "t-"+c.prompt, c.prompt)
		if turn.State != ahpwire.TurnError || !strings.Contains(errText(turn), c.want) {
			t.Fatalf("%s: state %q error %q", c.prompt, turn.State, errText(turn))
		}
	}
	turn := e.run(e.c, chat, "t-fail", "fail")
	tcs := toolCalls(turn.ResponseParts)
	if len(tcs) != 1 || tcs[0].Success == nil || *tcs[0].Success || tcs[0].Error == nil || !strings.Contains(tcs[0].Error.Message, "boom") {
		t.Fatalf("failed tool: %+v", tcs)
	}
	if turn.State != ahpwire.TurnComplete {
		t.Fatalf("turn state %q", turn.State)
	}
}

// Session rows: the agent's title, its slash commands as completions, its
// modes as the session config (learnt from the agent's first session, so
// a second session offers them), applied with session/set_mode.
func TestSessionRows(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "rows")
	e.run(e.c, chat, "t1", "title Fix the parser")
	e.eventually("title", func() bool {
		res, err := e.c.c.ListSessions(e.ctx, 10, "")
		return err == nil && len(res.Items) == 1 && res.Items[0].Title == "Fix the parser"
	})
	e.run(e.c, chat, "t2", "commands")
	items, err := e.c.c.Completions(e.ctx, chat, "/re", 3)
	if err != nil || len(items) != 1 || items[0].InsertText != "/review " {
		t.Fatalf("completions %+v %v", items, err)
	}
	res, err := e.c.c.ResolveSessionConfig(e.ctx, ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := res.Schema.Properties["mode"]; !ok || len(p.Enum) != 2 || p.EnumLabels[1] != "Code" {
		t.Fatalf("mode property %+v", res.Schema.Properties)
	}
	session2, chat2 := e.newSession(e.c, "rows2")
	if turn := e.run(e.c, chat2, "t3", "mode"); markdown(turn) != "Mode: ask." {
		t.Fatalf("before set_mode: %q", markdown(turn))
	}
	if _, err := e.c.c.Dispatch(e.ctx, session2, &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"mode": json.RawMessage(`"code"`)}}); err != nil {
		t.Fatal(err)
	}
	e.eventually("config accepted", func() bool {
		for _, en := range e.c.actions(session2) {
			if _, ok := en.Action.(*ahpwire.SessionConfigChanged); ok {
				if en.RejectionReason != "" {
					t.Fatalf("config change rejected: %s", en.RejectionReason)
				}
				return true
			}
		}
		return false
	})
	e.eventually("set_mode applied at once (before any prompt)", func() bool {
		e.b.mu.Lock()
		s := e.b.sessions[session2]
		e.b.mu.Unlock()
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.applied["mode"] == "code"
	})
	turn := e.run(e.c, chat2, "t4", "mode")
	if markdown(turn) != "Mode: code." {
		t.Fatalf("after set_mode: %q", markdown(turn))
	}
}

// Asking for the configuration before the agent ever ran starts it and
// opens a spare session to learn its modes; the first session then has
// them in its configuration, and its first turn uses that spare session.
func TestFirstSessionGetsConfig(t *testing.T) {
	e := newEnv(t, opts{})
	p := ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: "fake", WorkingDirectory: fileURI(e.dir)}
	e.eventually("the agent's modes", func() bool {
		res, err := e.c.c.ResolveSessionConfig(e.ctx, p)
		return err == nil && len(res.Schema.Properties["mode"].Enum) == 2
	})
	session, chat := e.newSession(e.c, "first")
	snap, err := e.c.c.Subscribe(e.ctx, session, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ss ahpwire.SessionState
	if err := json.Unmarshal(snap.State, &ss); err != nil || ss.Config == nil || !strings.Contains(string(ss.Config.Schema), `"mode"`) {
		t.Fatalf("session config %+v %v", ss.Config, err)
	}
	if turn := e.run(e.c, chat, "t1", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("%q %q", markdown(turn), errText(turn))
	}
	e.b.mu.Lock()
	spare := e.b.spare
	e.b.mu.Unlock()
	if spare != nil {
		t.Fatal("the spare session was not used")
	}
}

// A session created while the warm-up's session/new is still on its way
// (the new-session form asked for the configuration, the user submitted at
// once) takes the warm-up's session: the agent answers one session/new,
// not two (each left an unused session in the agent's own store).
func TestWarmUpSessionIsTheFirstSession(t *testing.T) {
	e := newEnv(t, opts{})
	p := ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: "fake", WorkingDirectory: fileURI(e.dir)}
	if _, err := e.c.c.ResolveSessionConfig(e.ctx, p); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "first")
	if turn := e.run(e.c, chat, "t1", "sessions"); markdown(turn) != "sessions: 1" {
		t.Fatalf("%q %q", markdown(turn), errText(turn))
	}
}

// A retry the agent reports on its stderr (its model API failing) is the
// turn's activity line until the agent's next output.
func TestRetryShownAsActivity(t *testing.T) {
	e := newEnv(t, opts{})
	session, chat := e.newSession(e.c, "retry")
	k2 := e.dial() // records every envelope (it never re-subscribes)
	if got := e.open(k2, session); got != chat {
		t.Fatalf("opened %s", got)
	}
	e.prompt(e.c, chat, "t1", "retrying")
	var seen []string
	e.eventually("the turn's end on the second client", func() bool {
		seen = seen[:0]
		for _, en := range k2.actions(chat) {
			switch a := en.Action.(type) {
			case *ahpwire.ChatActivityChanged:
				seen = append(seen, "activity:"+a.Activity)
			case *ahpwire.ChatResponsePart:
				seen = append(seen, "text")
			case *ahpwire.ChatTurnComplete:
				seen = append(seen, "complete")
				return true
			}
		}
		return false
	})
	want := "activity:agent: Attempt 1 failed with status 429. Retrying with backoff...,activity:,text,complete"
	if strings.Join(seen, ",") != want {
		t.Fatalf("actions %q, want %q", strings.Join(seen, ","), want)
	}
	if st := e.chatState(e.c, chat); st.Activity != "" {
		t.Fatalf("activity left %q", st.Activity)
	}
}
