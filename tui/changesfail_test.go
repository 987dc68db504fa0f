package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestChangesViewSaysWhyAChangesetFailed: a changeset the host refuses to
// send (-32050, e.g. 1e5 files) is reported in the changes view, not shown
// as "Loading changes…" forever (issue 24, minor).
func TestChangesViewSaysWhyAChangesetFailed(t *testing.T) {
	const cs = "ahp-changeset:/big/session"
	fb := &fakeBackend{subErr: map[string]error{cs: &ahpclient.MessageTooLargeError{Op: "subscribe", Size: 90 << 20, Limit: 16 << 20,
		RPC: &ahpwire.RPCError{Code: ahpwire.CodeMessageTooLarge, Message: "message too large"}}}}
	m := newModel(Options{Backend: fb, NoticeTTL: 1, FrameInterval: 1})
	m = send(t, m, teaSize(100, 30))
	cmd := m.openChangesOn([]ahpwire.Changeset{{Label: "Session Changes", URITemplate: cs}})
	m = runCmds(t, m, cmd, 4)
	v := viewText(m)
	if strings.Contains(v, "Loading changes") || !strings.Contains(v, "message too large") {
		t.Fatalf("changes view:\n%s", v)
	}
}

// TestLiveChangesViewSaysWhyAChangesetFailed: against the real host, a
// changeset snapshot above the host's snapshot limit answers -32050 and
// the changes view says so.
func TestLiveChangesViewSaysWhyAChangesetFailed(t *testing.T) {
	r := startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond, MaxSnapshotBytes: 2500})
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	r.m = typeText(t, r.m, "/demo edit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("edit turn done", func(m Model) bool {
		return m.chat.State.Current == nil && len(m.chat.State.Messages) >= 2 && len(m.chat.AHP().Changesets) == 1
	})
	r.m = send(t, r.m, f6())
	r.pump("failure shown", func(m Model) bool { return strings.Contains(viewText(m), "message too large") })
}
