package cli

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestServeStateBudgetDropsArchivedAndSaysSo: `serve --state-budget 1m`
// on a database over it (1.7 MB in use) drops the turns of the archived
// session once a commit is made, and says so twice: in that chat (a
// note instead of its turns, which `export` shows) and in the log; the
// session that is not archived keeps every turn.
func TestServeStateBudgetDropsArchivedAndSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	unpackUpgradeFixture(t, r.state)
	r.cmd = exec.Command(r.bin, "serve", "--addr", r.addr, "--token", "tok-durable", "--state-dir", r.state,
		"--dir", r.proj, "--state-budget", "1m")
	r.startCmd()
	before := r.run("export", r.url(), "--token", "tok-durable", upgradeDenied)

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c := reconnectClient(ctx, t, r)
	session := "ahp-session:/" + upgradeLayout
	if _, err := c.Subscribe(ctx, session, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Dispatch(ctx, session, &ahpwire.SessionIsArchivedChanged{IsArchived: true}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testTimeout)
	for {
		out := r.run("export", r.url(), "--token", "tok-durable", upgradeLayout)
		if strings.Contains(out, "removed to keep the host's saved state within its size budget") {
			if strings.Contains(out, "Explain the project layout\n\n## Agent") {
				t.Fatalf("the note came but the turns stayed:\n%s", out)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the archived session kept its turns over the budget:\n%s\nlog:\n%s", out, r.errb.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if log := r.errb.String(); !strings.Contains(log, "dropped the turns of an archived session") || !strings.Contains(log, upgradeLayout) {
		t.Fatalf("the log does not say so:\n%s", log)
	}
	if after := r.run("export", r.url(), "--token", "tok-durable", upgradeDenied); after != before {
		t.Fatalf("the session that is not archived changed:\n%s\nwas:\n%s", after, before)
	}
}
