package tui

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
)

// hostsRig is a model attached to host "a" (fake backend fa) with hosts
// "b" (connects to fb when asked) and "c" (never answers) configured.
type hostsRig struct {
	m      Model
	fa, fb *fakeBackend
	now    time.Time
}

func newHostsRig(t *testing.T, notify *NotifyOptions) *hostsRig {
	t.Helper()
	r := &hostsRig{fa: &fakeBackend{}, fb: &fakeBackend{}, now: fixedNow}
	never := func(ctx context.Context) (app.Backend, error) { <-ctx.Done(); return nil, ctx.Err() }
	r.m = newModel(Options{
		Backend: r.fa, HostName: "a", Host: "a (127.0.0.1:1)", Dark: true, Notify: notify,
		Now: func() time.Time { return r.now }, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond,
		Hosts: []HostOption{
			{Name: "a", Label: "a (127.0.0.1:1)"},
			{Name: "b", Label: "b (127.0.0.1:2)", Connect: func(context.Context) (app.Backend, error) { return r.fb, nil }},
			{Name: "c", Label: "c (127.0.0.1:3)", Connect: never},
		},
	})
	r.m = send(t, r.m, teaSize(80, 24))
	return r
}

func (r *hostsRig) update(t *testing.T, msg tea.Msg) tea.Cmd {
	t.Helper()
	nm, cmd := r.m.Update(msg)
	r.m = nm.(Model)
	return cmd
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func summary(id, title string, st ahpwire.SessionStatus, age time.Duration) ahpwire.SessionSummary {
	return ahpwire.SessionSummary{Resource: "ahp-session:/" + id, Provider: "demo", Title: title, Status: st, ModifiedAt: ts(age)}
}

func summaryChanged(t *testing.T, id string, st ahpwire.SessionStatus) ahpclient.NotificationEvent {
	t.Helper()
	p := ahpwire.SessionSummaryChangedParams{Session: "ahp-session:/" + id, Changes: ahpwire.PartialSessionSummary{Status: &st}}
	return ahpclient.NotificationEvent{Method: ahpwire.MethodSessionSummaryChanged, Params: jsonOf(t, p)}
}

// TestInboxGroupsHosts: every host is its own group in config order, each
// with its own state; a host that never answers stays "connecting…" while
// another's sessions appear; in each group the sessions that need the user
// come first, unread ones are marked; a host that goes down says why and
// when it retries.
func TestInboxGroupsHosts(t *testing.T) {
	r := newHostsRig(t, nil)
	init := r.m.Init() // dials b and c, each on its own command
	msgs := make(chan tea.Msg, 8)
	go func() { msgs <- init() }()
	v := viewText(r.m)
	for _, want := range []string{"@a  connected · attached", "@b  connecting…", "@c  connecting…"} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q:\n%s", want, v)
		}
	}
	// b connects (its Connect returned) while c is still dialling.
	r.update(t, hostConnectedMsg{name: "b", b: r.fb})
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("b1", "Old idle", ahpwire.StatusIdle|ahpwire.StatusIsRead, time.Minute),
		summary("b2", "Asks a question", ahpwire.StatusInputNeeded|ahpwire.StatusIsRead, 2*time.Hour),
		summary("b3", "Fresh unread", ahpwire.StatusIdle, 10*time.Second),
	}}}})
	r.update(t, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("a1", "On a", ahpwire.StatusIdle|ahpwire.StatusIsRead, time.Hour),
		summary("a2", "Failed on a", ahpwire.StatusError|ahpwire.StatusIsRead, 3*time.Hour),
	}}}})
	v = viewText(r.m)
	order := []string{"@a  connected", "Failed on a", "On a", "@b  connected", "Asks a question", "Fresh unread", "Old idle", "@c  connecting…"}
	last := -1
	for _, w := range order {
		i := strings.Index(v, w)
		if i <= last {
			t.Fatalf("%q out of order (%d after %d):\n%s", w, i, last, v)
		}
		last = i
	}
	golden(t, "grouped-80x24", v)
	if h, s := r.m.picker.Selected(); h != "a" || s != "ahp-session:/a2" {
		t.Fatalf("the cursor left the first row before the user moved it: %s %s", h, s)
	}
	if !strings.Contains(v, "• ○ Fresh unread") || strings.Contains(v, "• ○ Old idle") || !strings.Contains(v, "? Asks a question") {
		t.Fatalf("markers:\n%s", v)
	}
	// c gives up: down, why, and the countdown to the next try.
	cmd := r.update(t, hostConnectedMsg{name: "c", err: &ahpclient.DialError{URL: "ws://127.0.0.1:3/", Err: errors.New("connection refused")}})
	if cmd == nil {
		t.Fatal("no retry scheduled")
	}
	v = viewText(r.m)
	if !strings.Contains(v, "@c  down, retrying in 1s: ") {
		t.Fatalf("down state:\n%s", v)
	}
	r.now = r.now.Add(5 * time.Second)
	r.update(t, hostRetryMsg{name: "c", attempt: 1})
	if v := viewText(r.m); !strings.Contains(v, "@c  down, retrying now") {
		t.Fatalf("retry state:\n%s", v)
	}
	// A watched host that loses its link counts down with the client.
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{
		Phase: ahpclient.Reconnecting, Attempt: 1, NextRetry: r.now.Add(3 * time.Second), Err: ahpclient.ErrConnectionLost}}})
	if v := viewText(r.m); !strings.Contains(v, "@b  down, retrying in 3s: the connection to the host was lost") || !strings.Contains(v, "Asks a question") {
		t.Fatalf("reconnecting watcher:\n%s", v)
	}
	// The frame never exceeds the terminal, even small.
	r.m = send(t, r.m, teaSize(30, 8))
	lines := strings.Split(r.m.View().Content, "\n")
	if len(lines) > 8 {
		t.Fatalf("%d lines at 30×8", len(lines))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 30 {
			t.Fatalf("line wider than 30: %q", ansi.Strip(l))
		}
	}
}

// TestInboxSwitchesHost: enter on a session of another host attaches to
// that host (its backend, its agents, the status line) and opens the
// session there; the left host keeps being watched; keys that act on a
// session of another host say so instead of acting on the wrong host.
func TestInboxSwitchesHost(t *testing.T) {
	r := newHostsRig(t, nil)
	r.update(t, hostConnectedMsg{name: "b", b: r.fb})
	rs, err := ahpwire.NewSnapshot(rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "bee", DisplayName: "Bee"}}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.SnapshotEvent{Snapshot: rs}})
	ra, err := ahpwire.NewSnapshot(rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "ay", DisplayName: "Ay"}}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.update(t, connEventMsg{ev: ahpclient.SnapshotEvent{Snapshot: ra}})
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("b1", "Bee session", ahpwire.StatusIdle|ahpwire.StatusIsRead, time.Minute)}}}})
	r.update(t, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("a1", "Aye session", ahpwire.StatusIdle|ahpwire.StatusIsRead, time.Minute)}}}})
	r.m = send(t, r.m, keyPress("down"))
	r.m = send(t, r.m, keyPress("ctrl+x")) // dispose: not on the attached host
	if len(r.fa.disposed)+len(r.fb.disposed) != 0 || !strings.Contains(viewText(r.m), "open it first: that session is on @b") {
		t.Fatalf("dispose on another host:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, keyPress("enter"))
	if r.m.c.Backend != r.fb || r.m.here() != "b" || r.m.c.Host != "b (127.0.0.1:2)" {
		t.Fatalf("not attached to b: here %q host %q", r.m.here(), r.m.c.Host)
	}
	if !slices.Contains(r.fb.subscribed, "ahp-session:/b1") || slices.Contains(r.fa.subscribed, "ahp-session:/b1") {
		t.Fatalf("subscribed a %v, b %v", r.fa.subscribed, r.fb.subscribed)
	}
	if len(r.m.picker.Agents) != 1 || r.m.picker.Agents[0].Provider != "bee" {
		t.Fatalf("agents %+v", r.m.picker.Agents)
	}
	// a is watched now: its events reach the list, not the chat.
	r.update(t, connEventMsg{b: r.fa, ev: ahpclient.NotificationEvent{Method: ahpwire.MethodSessionAdded,
		Params: jsonOf(t, ahpwire.SessionAddedParams{Summary: summary("a2", "Another on a", ahpwire.StatusIdle, 0)})}})
	if v := viewText(r.m); !strings.Contains(r.m.picker.View(&r.m.c.Styles), "Another on a") || !strings.Contains(v, "● Connected") {
		t.Fatalf("watched a:\n%s", r.m.picker.View(&r.m.c.Styles))
	}
	if h := r.m.host("a"); h.b != r.fa {
		t.Fatal("the left host's connection was dropped")
	}
	// b gives up for good while attached; leaving it closes that client
	// and dials b again.
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Failed, Err: ahpclient.ErrConnectionLost}}})
	// Back to a: a's agents again (kept while b was attached).
	r.update(t, picker.OpenSessionMsg{Session: "ahp-session:/a1", Host: "a"})
	if r.m.c.Backend != r.fa || len(r.m.picker.Agents) != 1 || r.m.picker.Agents[0].Provider != "ay" {
		t.Fatalf("back on a: agents %+v", r.m.picker.Agents)
	}
	if h := r.m.host("b"); h.b != nil || !strings.Contains(ansi.Strip(r.m.picker.View(&r.m.c.Styles)), "@b  down") {
		t.Fatalf("b failed but still held:\n%s", r.m.picker.View(&r.m.c.Styles))
	}
	// A host that is not up cannot be switched to: the user is told why.
	r.m.picker.SetHostSessions("c", []ahpwire.SessionSummary{summary("c1", "Sea", ahpwire.StatusIdle, 0)})
	r.update(t, picker.OpenSessionMsg{Session: "ahp-session:/c1", Host: "c"})
	if r.m.c.Backend != r.fa || !strings.Contains(viewText(r.m), "@c is connecting…") {
		t.Fatalf("switched to a host that is not up:\n%s", viewText(r.m))
	}
}

// TestInboxNotifiesAcrossHosts: a session of any host that starts needing
// the user or finishes a turn notifies once per event, wherever the user
// is; the session on screen (focused) does not.
func TestInboxNotifiesAcrossHosts(t *testing.T) {
	r := newHostsRig(t, &NotifyOptions{Bell: true, Desktop: "osc9"})
	r.update(t, hostConnectedMsg{name: "b", b: r.fb})
	r.update(t, connEventMsg{b: r.fb, ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("s", "Build it", ahpwire.StatusInProgress, 0)}}}})
	r.update(t, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("s", "Same id on a", ahpwire.StatusInProgress, 0)}}}})
	ask := summaryChanged(t, "s", ahpwire.StatusInputNeeded)
	if got := rawMsgs(r.update(t, connEventMsg{b: r.fb, ev: ask})); len(got) != 1 || got[0] != "\a\x1b]9;Build it on @b needs you\a" {
		t.Fatalf("watched host: %q", got)
	}
	if got := rawMsgs(r.update(t, connEventMsg{b: r.fb, ev: ask})); len(got) != 0 {
		t.Fatalf("twice for one event: %q", got)
	}
	// The same session id on the attached host is another session.
	if got := rawMsgs(r.update(t, connEventMsg{ev: ask})); len(got) != 1 || !strings.Contains(got[0], "Same id on a on @a needs you") {
		t.Fatalf("attached host: %q", got)
	}
	// The turn ends: one more, for that event.
	if got := rawMsgs(r.update(t, connEventMsg{b: r.fb, ev: summaryChanged(t, "s", ahpwire.StatusIdle)})); len(got) != 1 || !strings.Contains(got[0], "finished") {
		t.Fatalf("turn end: %q", got)
	}
	// b's list after a reconnect: a session that started asking while the
	// link was down notifies once, like a live change.
	relist := connEventMsg{b: r.fb, ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("s", "Build it", ahpwire.StatusInputNeeded, 0)}}}}
	if got := rawMsgs(r.update(t, relist)); len(got) != 1 || !strings.Contains(got[0], "Build it on @b needs you") {
		t.Fatalf("after a reconnect: %q", got)
	}
	if got := rawMsgs(r.update(t, relist)); len(got) != 0 {
		t.Fatalf("the same list again notified: %q", got)
	}
	// The session on screen does not notify while focused, does when not.
	r.m.screen, r.m.chat = screenChat, chat.New(r.m.c, r.m.conn, "ahp-session:/s", "ahp-chat:/s", "Same id on a")
	r.update(t, connEventMsg{ev: summaryChanged(t, "s", ahpwire.StatusInProgress)})
	if got := rawMsgs(r.update(t, connEventMsg{ev: summaryChanged(t, "s", ahpwire.StatusIdle)})); len(got) != 0 {
		t.Fatalf("the session on screen notified: %q", got)
	}
	r.update(t, tea.BlurMsg{})
	r.update(t, connEventMsg{ev: summaryChanged(t, "s", ahpwire.StatusInProgress)})
	if got := rawMsgs(r.update(t, connEventMsg{ev: summaryChanged(t, "s", ahpwire.StatusError)})); len(got) != 1 || !strings.Contains(got[0], "failed") {
		t.Fatalf("unfocused: %q", got)
	}
}

// TestInboxWithoutAttachedHost: opened on the inbox alone (no default
// host), the first host up is attached; keys that need a host before then
// say so instead of failing.
func TestInboxWithoutAttachedHost(t *testing.T) {
	fb := &fakeBackend{}
	m := newModel(Options{Hosts: []HostOption{
		{Name: "x", Connect: func(ctx context.Context) (app.Backend, error) { <-ctx.Done(); return nil, ctx.Err() }},
		{Name: "y", Connect: func(context.Context) (app.Backend, error) { return fb, nil }},
	}, Dark: true, NoticeTTL: time.Hour})
	m = send(t, m, teaSize(80, 24))
	m = send(t, m, keyPress("ctrl+n"))
	if !strings.Contains(viewText(m), "no host is connected yet") {
		t.Fatalf("ctrl+n without a host:\n%s", viewText(m))
	}
	nm, _ := m.Update(hostConnectedMsg{name: "y", b: fb})
	m = nm.(Model)
	if m.c.Backend != fb || m.here() != "y" || !strings.Contains(viewText(m), "@y  connected · attached") {
		t.Fatalf("first host up not attached:\n%s", viewText(m))
	}
}

// TestOpenSessionAtStart: Options.OpenSession subscribes to that session
// at once.
func TestOpenSessionAtStart(t *testing.T) {
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, Dark: true, OpenSession: "ahp-session:/x"})
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = runCmds(t, m, m.Init(), 0)
	if m.open == nil || m.open.session != "ahp-session:/x" {
		t.Fatalf("not opening the session: %+v", m.open)
	}
}

// TestInboxURLHost: a host attached by URL is its own group, first; once
// left, it is watched like the others, and when its client gives up it
// shows down (there is nothing to dial it again with).
func TestInboxURLHost(t *testing.T) {
	fa, fb := &fakeBackend{}, &fakeBackend{}
	m := newModel(Options{Backend: fa, Host: "127.0.0.1:9", Dark: true, NoticeTTL: time.Hour, Hosts: []HostOption{
		{Name: "b", Connect: func(context.Context) (app.Backend, error) { return fb, nil }},
	}})
	m = send(t, m, teaSize(80, 24))
	nm, _ := m.Update(hostConnectedMsg{name: "b", b: fb})
	m = nm.(Model)
	m = send(t, m, connEventMsg{b: fb, ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		summary("b1", "Bee", ahpwire.StatusIdle, 0)}}}})
	if v := viewText(m); strings.Index(v, "@127.0.0.1:9  connected · attached") > strings.Index(v, "@b  connected") {
		t.Fatalf("URL host not first:\n%s", v)
	}
	nm, _ = m.Update(picker.OpenSessionMsg{Session: "ahp-session:/b1", Host: "b"})
	m = nm.(Model)
	nm, _ = m.Update(connEventMsg{b: fa, ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Failed, Err: ahpclient.ErrConnectionLost}}})
	m = nm.(Model)
	if v := viewText(m); !strings.Contains(v, "@127.0.0.1:9  down: the connection to the host was lost") || m.c.Backend != fb {
		t.Fatalf("URL host after giving up:\n%s", v)
	}
	nm, retry := m.Update(hostRetryMsg{name: "", attempt: 1})
	if retry != nil || nm.(Model).c.Backend != fb {
		t.Fatal("a URL host was dialled again")
	}
}
