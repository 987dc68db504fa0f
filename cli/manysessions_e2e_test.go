package cli

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestTUIListsEverySessionOfALongRunningHost: a durable host that has
// gathered more sessions than one page of listSessions (230: a long-running
// host whose scripts use exec) shows all of them in the TUI's session list,
// and its filter finds the oldest. The TUI read only the first page (100 at
// connect, 200 on a refresh), said "Sessions  200" and could not reach the
// older ones.
func TestTUIListsEverySessionOfALongRunningHost(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes and tmux")
	}
	r := newDurableRig(t)
	r.start()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	waitPhase(ctx, t, c, ahpclient.Connected)
	const total = 230
	for i := range total {
		uri := fmt.Sprintf("ahp-session:/many-%03d", i)
		must(t, c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: uri, WorkingDirectories: []string{"file://" + r.proj}}))
		if i == 0 {
			_, err := c.Dispatch(ctx, uri, &ahpwire.SessionTitleChanged{Title: "the very first session"})
			must(t, err)
		}
	}
	r.tmux = fmt.Sprintf("ahptui-many-%d", os.Getpid())
	tui := fmt.Sprintf("XDG_STATE_HOME=%s %s %s --token tok-durable; sleep 60", r.xdg, r.bin, r.url())
	must(t, r.tmuxCmd("new-session", "-d", "-s", "d", "-x", "100", "-y", "30", tui).Run())
	r.waitScreen("every session listed", fmt.Sprintf("Sessions  %d", total))
	must(t, r.tmuxCmd("send-keys", "-t", "d", "-l", "very first").Run())
	r.waitScreen("the oldest found by the filter", "the very first session")
}
