package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestSessionsTableNewestFirstArchivedMarked: `ahptui sessions` against a
// real host lists the sessions most recently modified first and marks the
// archived ones. The host answers in the order of its last summary change
// (archiving an old session moved it to the top, and a restart put it back
// by its age, so the table changed order across a restart), and the table
// had no sign of which sessions were archived (the TUI hides them).
func TestSessionsTableNewestFirstArchivedMarked(t *testing.T) {
	u, _ := startTestHost(t)
	var ids []string
	for _, p := range []string{"first chat", "second chat", "third chat"} {
		code, _, errs := runIn(t, "", "exec", u, p)
		if code != execCompleted {
			t.Fatalf("exec %q: %d %s", p, code, errs)
		}
		ids = append(ids, regexp.MustCompile(`ahptui: session (\S+)`).FindStringSubmatch(errs)[1])
		time.Sleep(5 * time.Millisecond) // distinct modifiedAt (milliseconds)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: u, Token: execToken, StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	waitPhase(ctx, t, c, ahpclient.Connected)
	_, err = c.Dispatch(ctx, "ahp-session:/"+ids[0], &ahpwire.SessionIsArchivedChanged{IsArchived: true})
	must(t, err)

	waitFor := time.Now().Add(10 * time.Second)
	for {
		_, out, _ := runIn(t, "", "sessions", u, "--json")
		if strings.Contains(out, `"archived":true`) {
			break
		}
		if time.Now().After(waitFor) {
			t.Fatalf("the host did not archive the session: %s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, out, errs := runIn(t, "", "sessions", u)
	if code != exitOK {
		t.Fatalf("sessions: %d %s", code, errs)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(rows) != 3 {
		t.Fatalf("rows %q", rows)
	}
	for i, want := range []string{"third chat", "second chat", "first chat"} {
		if !strings.Contains(rows[i], ids[2-i]) || !strings.Contains(rows[i], want) {
			t.Fatalf("row %d is %q, want %s (%s), newest first:\n%s", i, rows[i], want, ids[2-i], strings.Join(rows, "\n"))
		}
	}
	if !strings.Contains(rows[2], "[archived]") || strings.Contains(rows[0]+rows[1], "archived") {
		t.Fatalf("archived session not marked (only it):\n%s", strings.Join(rows, "\n"))
	}
}
