package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// /demo artifacts against the real embedded host: the session's artifacts
// arrive as session/artifactSet, F8 lists them by label and kind, Enter
// reads one with resourceRead and shows it; /demo artifacts clear empties
// the list.
func TestLiveDemoArtifactsListedAndOpened(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo artifacts")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("artifacts listed", func(m Model) bool {
		return m.chat.State.Current == nil && m.sessionState() != nil && len(m.sessionState().Artifacts) == 4
	})
	r.m = send(t, r.m, tea.KeyPressMsg{Code: tea.KeyF8})
	view := viewText(r.m)
	for _, want := range []string{"Session artifacts", "Review notes (docs/REVIEW.md) (document)",
		"Pull request #42: validate input first (pullRequest)", "Issue #7: crash on empty input (issue)"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not in the artifacts list:\n%s", want, view)
		}
	}
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("artifact opened", func(m Model) bool { return strings.Contains(viewText(m), "step1` now validates") })
	r.m = send(t, r.m, keyPress("esc"))
	r.m = send(t, r.m, keyPress("esc"))
	if len(r.m.overlays) != 0 {
		t.Fatalf("overlays left open: %d", len(r.m.overlays))
	}
	r.m = typeText(t, r.m, "/demo artifacts clear")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("artifacts cleared", func(m Model) bool {
		return m.chat.State.Current == nil && m.sessionState() != nil && len(m.sessionState().Artifacts) == 0 && len(m.chat.State.Messages) >= 4
	})
}
