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
	m := New(Options{Backend: fb, NoticeTTL: 1, FrameInterval: 1})
	m = send(t, m, teaSize(100, 30))
	o, cmd := newChangesOverlay(m.c.ext, m.c.km.Changes, []ahpwire.Changeset{{Label: "Session Changes", URITemplate: cs}})
	m.overlays = append(m.overlays, o)
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
	r.pump("agents", func(m Model) bool { return len(m.picker.agents) > 0 && m.picker.loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.ready })
	r.m = typeText(t, r.m, "/demo edit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("edit turn done", func(m Model) bool {
		return m.chat.state.Current == nil && len(m.chat.state.Messages) >= 2 && len(m.c.ext.chatSets) == 1
	})
	r.m = send(t, r.m, f6())
	r.pump("failure shown", func(m Model) bool { return strings.Contains(viewText(m), "message too large") })
}

// TestChangesDiffLaidOutOncePerContents: the open diff is laid out once
// per (contents, width), not in every View (issue 24 item 8: a 15 MB line
// froze the UI because each frame diffed it again).
func TestChangesDiffLaidOutOncePerContents(t *testing.T) {
	const cs = "ahp-changeset:/c/session"
	m := New(Options{Backend: &fakeBackend{}, NoticeTTL: 1, FrameInterval: 1})
	m = send(t, m, teaSize(100, 30))
	side := func(text string) *ahpwire.FileEditSide {
		return &ahpwire.FileEditSide{URI: "file:///w/a.txt", Content: ahpwire.ContentRef{URI: "data:text/plain," + text}}
	}
	o, _ := newChangesOverlay(m.c.ext, m.c.km.Changes, []ahpwire.Changeset{{Label: "S", URITemplate: cs}})
	m.c.ext.changesets[cs] = &csSub{ready: true, state: ahpwire.ChangesetState{Files: []ahpwire.ChangesetFile{
		{ID: "f", Edit: ahpwire.FileEdit{Before: side("old%0A"), After: side("new%0A")}}}}}
	o.diff = &diffPane{row: o.rows()[0]}
	st := &m.c.styles
	first := o.View(st, 100, 30)
	laid := o.diff.lines
	if second := o.View(st, 100, 30); second != first || len(laid) == 0 || &o.diff.lines[0] != &laid[0] {
		t.Fatal("the diff was laid out again for an unchanged frame")
	}
	o.View(st, 90, 30)
	if &o.diff.lines[0] == &laid[0] {
		t.Fatal("a new width did not lay the diff out again")
	}
}
