//go:build !windows

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEmbeddedHostsKeepSessionsPerUser: `ahptui demo` and `ahptui --agent
// NAME` (the in-repo fake ACP agent) in a real terminal keep their chats
// in the user's state directory: after quitting and starting again, the
// earlier session is offered (the picker at start for the demo, /resume
// for the agent) and opens with its whole chat — the first turn's question
// and answer and the later turn's edit with its diff — read from the
// database, not replayed by the agent.
func TestEmbeddedHostsKeepSessionsPerUser(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes in tmux")
	}
	bin := sharedBinary(t)
	for _, tc := range []struct {
		name, args, dir string
		turns           [][2]string // prompt, what its answer shows
		resume          bool        // the second run starts in a new chat: /resume
		first, diff     string      // the first turn's answer, a line of the edit's diff
		footer          string      // the last turn's time (and tokens), as it was shown
	}{
		{name: "demo", args: "demo", dir: "demo",
			turns: [][2]string{{"Explain the project layout", "Shall I start with the test?"}, {"/demo edit", "I changed these files"}},
			first: "First, a quick look at the project layout.", diff: "+var version = \"dev\"", footer: `↳ 802 in · 74 out · demo-1 · \d+ms`},
		{name: "agent", args: "--agent fake=" + sharedFakeACP(t), dir: "agents/fake", resume: true,
			turns: [][2]string{{"text please", "Hello from the fake agent."}, {"diff please", "Edited hello.txt."}},
			first: "Hello from the fake agent.", diff: "+hello from the fake agent", footer: `↳ \d+ms`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			cmd := fmt.Sprintf(`bash -c 'cd %q && %q %s; echo EXIT=$?'`, work, bin, tc.args)
			p := startPane(t, nil, cmd)
			p.waitFor(`Message…`)
			for _, turn := range tc.turns {
				p.tmux("send-keys", "-t", "e2e", "-l", turn[0])
				p.tmux("send-keys", "-t", "e2e", "Enter")
				p.waitFor(regexp.QuoteMeta(turn[1]))
			}
			shown := p.waitFor(`(?s)` + tc.footer + `.*Message…`) // the turn ended
			footer := regexp.MustCompile(tc.footer).FindString(shown)
			p.tmux("send-keys", "-t", "e2e", "C-c")
			if s := p.waitFor(`EXIT=0|Quit anyway`); !exitRe.MatchString(s) {
				// The session's summary may still say running for a moment
				// after the turn's end showed; a turn cut here is kept too.
				p.tmux("send-keys", "-t", "e2e", "y")
				p.waitFor(`EXIT=0`)
			}
			if _, err := os.Stat(filepath.Join(p.work, "state", "ahptui", tc.dir, "state.db")); err != nil {
				t.Fatalf("no per-user database: %v", err)
			}

			p.tmux("respawn-pane", "-k", "-t", "e2e", cmd)
			if tc.resume {
				p.waitFor(`Message…`)
				p.tmux("send-keys", "-t", "e2e", "-l", "/resume")
				p.tmux("send-keys", "-t", "e2e", "Enter")
			}
			p.waitFor(`(?s)Sessions\s+\d.*` + regexp.QuoteMeta(tc.turns[0][0])) // (--agent made a new one too)
			p.tmux("send-keys", "-t", "e2e", "-l", tc.turns[0][0])              // the picker's filter
			p.waitFor(`›\s+○ ` + regexp.QuoteMeta(tc.turns[0][0]))              // selected
			p.tmux("send-keys", "-t", "e2e", "Enter")
			p.waitFor(regexp.QuoteMeta(tc.turns[1][1]))
			p.waitFor(regexp.QuoteMeta(tc.diff))
			p.waitFor(regexp.QuoteMeta(footer)) // its time and tokens, not "just now"
			p.tmux("send-keys", "-t", "e2e", "Tab")
			p.tmux("send-keys", "-t", "e2e", "g") // the top of the transcript
			p.waitFor(`(?s)` + regexp.QuoteMeta(tc.turns[0][0]) + `.*` + regexp.QuoteMeta(tc.first))
		})
	}
}

// TestSecondDemoSaysItKeepsNoSessions: a second `ahptui demo` of the same
// user while the first runs cannot keep its sessions (the first holds the
// database); it says so on its screen, not only on the stderr its screen
// hides, and the first one's sessions are untouched.
func TestSecondDemoSaysItKeepsNoSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes in tmux")
	}
	bin := sharedBinary(t)
	state, work := t.TempDir(), t.TempDir()
	cmd := fmt.Sprintf(`bash -c 'cd %q && XDG_STATE_HOME=%q %q demo; echo EXIT=$?'`, work, state, bin)
	first := startPane(t, nil, cmd)
	first.waitFor(`Message…`)
	first.tmux("send-keys", "-t", "e2e", "-l", "Explain the project layout")
	first.tmux("send-keys", "-t", "e2e", "Enter")
	first.waitFor(`Shall I start with the test\?`)

	second := startPane(t, nil, cmd)
	second.waitFor(`this run keeps no sessions: another ahptui holds them`)
	if s := second.screen(); strings.Contains(s, "Explain the project layout") {
		t.Fatalf("the second demo shows the first one's sessions:\n%s", s)
	}
	second.tmux("send-keys", "-t", "e2e", "C-c")
	second.waitFor(`EXIT=0`)
	first.tmux("send-keys", "-t", "e2e", "C-s")
	first.waitFor(`(?s)Sessions\s+1[^0-9].*Explain the project layout`)
}
