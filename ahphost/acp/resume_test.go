package acp

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// interruptedText is the markdown of a turn up to its error part.
func interruptedText(t ahpwire.Turn) string {
	var b strings.Builder
	for _, p := range t.ResponseParts {
		if p.Kind == ahpwire.PartError {
			break
		}
		if p.Kind == ahpwire.PartMarkdown {
			b.WriteString(p.Content)
		}
	}
	return b.String()
}

// checkContinued checks a resumed turn: the reply shown before the
// interruption, its error part, then the agent's continuation, which
// quotes the end of that reply; the original prompt was not run again.
func checkContinued(t *testing.T, turn ahpwire.Turn, before string) {
	t.Helper()
	var after strings.Builder
	seenErr := false
	for _, p := range turn.ResponseParts {
		switch {
		case p.Kind == ahpwire.PartError:
			seenErr = true
		case seenErr && p.Kind == ahpwire.PartMarkdown:
			after.WriteString(p.Content)
		}
	}
	trimmed := []rune(strings.TrimSpace(before))
	end := string(trimmed[max(0, len(trimmed)-24):])
	if turn.State != ahpwire.TurnComplete || !seenErr || after.String() != "Continued after «"+end+"»." {
		t.Fatalf("resumed turn: state %s, error part %v, continuation %q (want it to quote %q); parts %+v",
			turn.State, seenErr, after.String(), end, turn.ResponseParts)
	}
	if strings.Contains(after.String(), "chunk 0.") {
		t.Fatal("the resume ran the original prompt again")
	}
	ids := map[string]bool{}
	for _, p := range turn.ResponseParts {
		if p.ID != "" && ids[p.ID] {
			t.Fatalf("part id %s twice in the resumed turn", p.ID)
		}
		ids[p.ID] = true
	}
}

// TestResumeContinuesInterruptedReply: a durable host closed while the
// fake agent streams a reply; after the restart the turn is interrupted,
// and chat/turnResume re-binds the agent's session (session/resume, or
// session/load when the agent has no resume: its replay is not added to
// the chat) and asks it to continue where the reply stopped, in the same
// turn: the agent is told the end of what was shown, not the original
// message.
func TestResumeContinuesInterruptedReply(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"resume", []string{"FAKEACP_LOAD=1", "FAKEACP_RESUME=1"}},
		{"load", []string{"FAKEACP_LOAD=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, agentState, hostState := t.TempDir(), t.TempDir(), t.TempDir()
			env := append(tc.env, "FAKEACP_STATE="+agentState)
			e := newEnv(t, opts{env: env, state: state, hostState: hostState})
			session, chat := e.newSession(e.c, "resume")
			e.run(e.c, chat, "t1", "text")
			e.prompt(e.c, chat, "t2", "slow")
			e.eventually("some of the slow reply", func() bool {
				st := e.chatState(e.c, chat)
				return st.ActiveTurn != nil && strings.Contains(markdownParts(st.ActiveTurn.ResponseParts.Slice()), "chunk 3.")
			})
			if err := e.h.Close(); err != nil {
				t.Fatal(err)
			}

			e2 := newEnv(t, opts{env: env, state: state, hostState: hostState})
			e2.open(e2.c, session)
			st := e2.chatState(e2.c, chat)
			if len(st.Turns) != 2 || st.Turns[1].State != ahpwire.TurnError {
				t.Fatalf("after restart: %d turns, last %+v", len(st.Turns), st.Turns[len(st.Turns)-1])
			}
			before := interruptedText(st.Turns[1])
			if _, err := e2.c.c.Dispatch(e2.ctx, chat, &ahpwire.ChatTurnResume{TurnID: "t2"}); err != nil {
				t.Fatal(err)
			}
			turn := e2.finished(e2.c, chat, "t2")
			checkContinued(t, turn, before)
			if n := len(e2.chatState(e2.c, chat).Turns); n != 2 {
				t.Fatalf("%d turns after the resume, want 2 (no replayed duplicates)", n)
			}
			if logs := e2.logs.String(); strings.Contains(logs, "failed") {
				t.Fatalf("logs:\n%s", logs)
			}
		})
	}
}

// markdownParts joins the markdown of parts.
func markdownParts(parts []ahpwire.ResponsePart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Kind == ahpwire.PartMarkdown {
			b.WriteString(p.Content)
		}
	}
	return b.String()
}

// TestContinuePrompt: the prompt of a resumed turn quotes the end of the
// reply it showed (or says it showed none); a turn that showed nothing but
// its error is sent again as it was (hasReply).
func TestContinuePrompt(t *testing.T) {
	p := continuePrompt(agent.Turn{ReplyTail: "…and the third step is "})
	if !strings.HasPrefix(p, continueWord+" ") || !strings.Contains(p, "«…and the third step is»") {
		t.Fatalf("prompt %q", p)
	}
	if p := continuePrompt(agent.Turn{}); strings.Contains(p, "«") || !strings.Contains(p, "no text") {
		t.Fatalf("prompt without a tail %q", p)
	}
	errPart := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "interrupted", Message: "stopped"}, true)
	if hasReply([]ahpwire.ResponsePart{errPart}) || !hasReply([]ahpwire.ResponsePart{ahpwire.MarkdownPart("m", "x"), errPart}) {
		t.Fatal("hasReply")
	}
}
