package tui

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/reducer"
)

// A turn resumed an hour after it failed, against the real embedded host
// (whose clock the test moves on by the hour): the transcript shows the
// time the turn ran — before the error and after alt+r — not the hour
// between (issue 28: a resumed turn's duration leaves out the pause).
func TestLiveResumedTurnShowsItsRunningTime(t *testing.T) {
	var mu sync.Mutex
	var shift time.Duration
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(shift)
	}
	r := openChatOn(t, startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond, Now: now}))
	r.m = typeText(t, r.m, "/demo error")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the resumable error", func(m Model) bool { return m.chat.ResumableTurn() != "" })
	mu.Lock()
	shift = time.Hour
	mu.Unlock()
	r.m = send(t, r.m, keyPress("alt+r"))
	r.pump("the resumed turn ends", func(m Model) bool {
		msgs := m.chat.State.Messages
		return m.chat.State.Current == nil && len(msgs) > 0 && strings.Contains(viewText(m), "Resumed after the error")
	})
	var last *reducer.Message
	for _, msg := range r.m.chat.State.Messages {
		if msg.Role == reducer.RoleAssistant {
			last = msg
		}
	}
	view := viewText(r.m)
	if last == nil || last.Duration <= 0 || last.Duration > time.Minute || strings.Contains(view, "1h00m") {
		t.Fatalf("the resumed turn's time (%v) counts the hour it sat failed:\n%s", last.Duration, view)
	}
	if !strings.Contains(view, " · "+last.Duration.Round(time.Millisecond).String()) && !strings.Contains(view, fmtShort(last.Duration)) {
		t.Fatalf("the usage line does not show the turn's %v:\n%s", last.Duration, view)
	}
}

// fmtShort is how the usage line writes a duration under ten seconds.
func fmtShort(d time.Duration) string {
	if d < time.Second {
		return " · " + strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return " · " + strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}
