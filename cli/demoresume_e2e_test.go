//go:build !windows

package cli

import (
	"fmt"
	"os"
	"regexp"
	"testing"
)

// TestDemoAgainResumeInThePicker: `ahptui demo` run again opens into the
// session list of its earlier chats; a user who types /resume there (as
// the docs say: "/resume after quitting finds earlier chats") gets the list
// whole, not "no session matches the filter", and Enter opens the latest
// chat with its history.
func TestDemoAgainResumeInThePicker(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes in tmux")
	}
	bin := sharedBinary(t)
	work, err := os.MkdirTemp("", "qa-") // a path fuzzy "/resume" does not match (t.TempDir's has the test's name)
	must(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(work) })
	cmd := fmt.Sprintf(`bash -c 'cd %q && %q demo; echo EXIT=$?'`, work, bin)
	p := startPane(t, nil, cmd)
	p.waitFor(`Message…`)
	p.tmux("send-keys", "-t", "e2e", "-l", "Explain the project layout")
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`(?s)Shall I start with the test\?.*↳ .*Message…`)
	p.tmux("send-keys", "-t", "e2e", "C-c")
	if s := p.waitFor(`EXIT=0|Quit anyway`); !exitRe.MatchString(s) {
		p.tmux("send-keys", "-t", "e2e", "y")
		p.waitFor(`EXIT=0`)
	}

	p.tmux("respawn-pane", "-k", "-t", "e2e", cmd)
	p.waitFor(`(?s)Sessions\s+1.*Explain the project layout`)
	p.tmux("send-keys", "-t", "e2e", "-l", "/resume")
	p.waitFor(`(?s)/resume.*›\s+○ Explain the project layout`) // still listed, selected
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(regexp.QuoteMeta("Shall I start with the test?"))
}
