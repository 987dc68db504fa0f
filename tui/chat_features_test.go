package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

// steerBackend is a fake backend with the optional composer, config and
// sign-in capabilities.
type steerBackend struct {
	fakeBackend
	smu       sync.Mutex
	tokens    []string
	resources []string // the resource of each authenticate
	items     []ahpwire.CompletionItem
}

func (s *steerBackend) HostFeatures() ahpclient.HostFeatures {
	return ahpclient.HostFeatures{CompletionTriggerCharacters: []string{"@", "/"}, TerminalCommandPrefix: "!", DefaultDirectory: "file:///w"}
}

func (s *steerBackend) Completions(_ context.Context, _, _ string, _ int) ([]ahpwire.CompletionItem, error) {
	return s.items, nil
}

func (s *steerBackend) ResolveSessionConfig(ctx context.Context, p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	return (&fakeConfig{}).ResolveSessionConfig(ctx, p)
}

func (s *steerBackend) SessionConfigCompletions(ctx context.Context, p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	return (&fakeConfig{}).SessionConfigCompletions(ctx, p)
}

func (s *steerBackend) Authenticate(_ context.Context, resource, token string) error {
	s.smu.Lock()
	defer s.smu.Unlock()
	s.tokens = append(s.tokens, token)
	s.resources = append(s.resources, resource)
	return nil
}

func newSteerModel(t testing.TB, w, h int) (Model, *steerBackend) {
	t.Helper()
	be := &steerBackend{items: []ahpwire.CompletionItem{fileItem("main.go"), fileItem("docs/guide.md")}}
	n := 0
	m := newModel(Options{
		Backend: be, Host: "127.0.0.1:4321", Dark: true, Editor: "true",
		Now: func() time.Time { return fixedNow }, NewID: func() string { n++; return fmt.Sprintf("id-%d", n) },
		FrameInterval: time.Nanosecond, NoticeTTL: time.Hour,
	})
	return send(t, m, tea.WindowSizeMsg{Width: w, Height: h}), be
}

func altEnter() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt} }

func TestComposerCompletionAttachesToMessage(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, nil))
	m = typeText(t, m, "look at @gui")
	if v := viewText(m); !strings.Contains(v, "▸ @docs/guide.md") {
		t.Fatalf("no popup:\n%s", v)
	}
	m = send(t, m, keyPress("tab"))
	if got := m.chat.Composer.Value(); got != "look at @docs/guide.md " {
		t.Fatalf("composer %q", got)
	}
	m = send(t, m, keyPress("enter"))
	a, ok := be.lastDispatch(t).action.(*ahpwire.ChatTurnStarted)
	if !ok || a.Message.Text != "look at @docs/guide.md" && a.Message.Text != "look at @docs/guide.md " || len(a.Message.Attachments) != 1 ||
		a.Message.Attachments[0].URI != "file:///w/docs/guide.md" {
		t.Fatalf("sent %+v", be.lastDispatch(t).action)
	}
}

func TestSteeringKeyAndQueueEditing(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	cs := chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working on it")))
	cs.QueuedMessages = []ahpwire.PendingMessage{{ID: "q1", Message: ahpwire.UserMessage("first later")}, {ID: "q2", Message: ahpwire.UserMessage("second later")}}
	m = openChat(t, m, cs)
	if v := viewText(m); !strings.Contains(v, "enter queues · alt+enter steers") {
		t.Fatalf("no steering hint:\n%s", v)
	}
	m = typeText(t, m, "focus on tests")
	m = send(t, m, altEnter())
	st, ok := be.lastDispatch(t).action.(*ahpwire.ChatPendingMessageSet)
	if !ok || st.Kind != ahpwire.PendingSteering || st.Message.Text != "focus on tests" {
		t.Fatalf("steer dispatched %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF2})
	if v := viewText(m); !strings.Contains(v, "Queued messages") || !strings.Contains(v, "▸ 1. first later") {
		t.Fatalf("queue list:\n%s", v)
	}
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModShift})
	if ro, ok := be.lastDispatch(t).action.(*ahpwire.ChatQueuedMessagesReordered); !ok || strings.Join(ro.Order, ",") != "q2,q1" {
		t.Fatalf("reorder %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, envelope(4, &ahpwire.ChatQueuedMessagesReordered{Order: []string{"q2", "q1"}}))
	m = send(t, m, keyPress("enter")) // edit q1 (the selection moved with it)
	if m.chat.Composer.Value() != "first later" || m.chat.Extras.Editing != "q1" {
		t.Fatalf("editing %q %q", m.chat.Composer.Value(), m.chat.Extras.Editing)
	}
	m = typeText(t, m, "!")
	m = send(t, m, keyPress("enter"))
	ed, ok := be.lastDispatch(t).action.(*ahpwire.ChatPendingMessageSet)
	if !ok || ed.ID != "q1" || ed.Kind != ahpwire.PendingQueued || ed.Message.Text != "first later!" {
		t.Fatalf("edit saved as %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF2})
	m = send(t, m, keyPress("x"))
	if rm, ok := be.lastDispatch(t).action.(*ahpwire.ChatPendingMessageRemoved); !ok || rm.ID != "q2" {
		t.Fatalf("remove %+v", be.lastDispatch(t).action)
	}
}

func TestSearchFindsCollapsedReasoningAndPagesHistory(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	turns := []ahpwire.Turn{finishedTurn("t0", "first question", "plain answer")}
	for i := 1; i < 6; i++ {
		turns = append(turns, finishedTurn(fmt.Sprintf("t%d", i), fmt.Sprintf("question %d", i), "answer "+strings.Repeat("filler ", 40)))
	}
	turns[0].ResponseParts = append([]ahpwire.ResponsePart{ahpwire.ReasoningPart("t0.r", "hidden NEEDLE in the reasoning")}, turns[0].ResponseParts...)
	cs := chatState(turns, nil)
	cs.TurnsNextCursor = "older"
	m = openChat(t, m, cs)
	if strings.Contains(viewText(m), "hidden NEEDLE") {
		t.Fatal("the reasoning should start collapsed and out of view")
	}
	m = send(t, m, keyPress("ctrl+f"))
	if len(be.fetched) == 0 {
		t.Fatal("search did not page in older turns")
	}
	// The call's end came (in the event stream, after any page it brought)
	// and no page moved the cursor: paging stops at once, nothing waits.
	m = send(t, m, fetchedEvent("older", nil))
	if m.chat.Extras.Search.Paging {
		t.Fatal("paging went on after the host had no page for the cursor")
	}
	m = typeText(t, m, "needle")
	v := viewText(m)
	if !strings.Contains(v, "hidden NEEDLE in the reasoning") || !strings.Contains(v, "1/1 · enter next") {
		t.Fatalf("search did not reveal the collapsed match:\n%s", v)
	}
	if raw := m.View().Content; !strings.Contains(raw, "\x1b[7m") && !strings.Contains(raw, ";7m") && !strings.Contains(raw, "7;") {
		t.Fatal("match not highlighted")
	}
	m = send(t, m, keyPress("esc"))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("n"))
	if !strings.Contains(viewText(m), "hidden NEEDLE") {
		t.Fatal("n lost the match")
	}
}

func TestCopyAndExportChat(t *testing.T) {
	t.Chdir(t.TempDir())
	m, _ := newSteerModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "the **answer**")}, nil))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("C"))
	if !strings.Contains(statusLine(m), "copied the chat as markdown") {
		t.Fatalf("status %q", statusLine(m))
	}
	m = send(t, m, keyPress("c"))
	if !strings.Contains(statusLine(m), "copied the message as markdown") {
		t.Fatalf("status %q", statusLine(m))
	}
	m = send(t, m, keyPress("e"))
	files, _ := filepath.Glob("ahptui-*.md")
	if len(files) != 1 {
		t.Fatalf("export files %v (status %q)", files, statusLine(m))
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "## You\n\nhello") || !strings.Contains(string(b), "the **answer**") {
		t.Fatalf("export:\n%s", b)
	}
}

func TestBackgroundWorkAndSubagentChat(t *testing.T) {
	m, be := newSteerModel(t, 120, 30)
	cs := chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "delegating")))
	cs.BackgroundWork = []ahpwire.BackgroundWork{{Kind: "shell", ID: "sh", Label: "Test suite", Command: "go test ./..."}}
	m = openChat(t, m, cs)
	m = send(t, m, envelope(3, &ahpwire.ChatBackgroundWorkSet{Work: ahpwire.BackgroundWork{Kind: "subagent", ID: "sa", Label: "Survey", Chat: "ahp-chat:/child"}}))
	if s := statusLine(m); !strings.Contains(s, "⚙ 2 running") {
		t.Fatalf("status %q", s)
	}
	if v := viewText(m); !strings.Contains(v, "⚙ 2 running: Test suite (shell) · Survey (subagent)") {
		t.Fatalf("strip:\n%s", v)
	}
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF3})
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	if m.chat.URI != "ahp-chat:/child" || m.chat.Extras.Parent != testChat {
		t.Fatalf("opened %q parent %q", m.chat.URI, m.chat.Extras.Parent)
	}
	child := ahpwire.ChatState{Resource: "ahp-chat:/child", Title: "Survey", Interactivity: ahpwire.InteractivityReadOnly, ParentChat: testChat}
	m = send(t, m, snapshotEvent(t, "ahp-chat:/child", child))
	if v := viewText(m); !strings.Contains(v, "a subagent's chat — alt+p back") {
		t.Fatalf("no breadcrumb:\n%s", v)
	}
	n := len(be.dispatched)
	m = typeText(t, m, "hi")
	m = send(t, m, keyPress("enter"))
	if len(be.dispatched) != n || !strings.Contains(statusLine(m), "read-only") {
		t.Fatalf("a read-only chat sent a message (status %q)", statusLine(m))
	}
	m = send(t, m, tea.KeyPressMsg{Code: 'p', Mod: tea.ModAlt})
	if m.chat.URI != testChat {
		t.Fatalf("alt+p went to %q", m.chat.URI)
	}
}

func TestStatusLineShowsConfiguredModelAndMode(t *testing.T) {
	m, _ := newSteerModel(t, 140, 30)
	r := demoSchemaResult()
	schema, _ := json.Marshal(r.Schema)
	ss := ahpwire.SessionState{Provider: "demo", Title: "cfg", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat,
		Chats:  []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}},
		Config: &ahpwire.ConfigState{Schema: schema, Values: map[string]json.RawMessage{"model": json.RawMessage(`"m2"`), "mode": json.RawMessage(`"plan"`)}}}
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	m = send(t, m, snapshotEvent(t, testSession, ss))
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
	if s := statusLine(m); !strings.Contains(s, "Two") || !strings.Contains(s, "Plan mode") {
		t.Fatalf("status %q", s)
	}
	env := connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: testSession, ServerSeq: 9,
		Action: &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"mode": json.RawMessage(`"agent"`)}}}}}
	m = send(t, m, env)
	if s := statusLine(m); !strings.Contains(s, "Agent mode") {
		t.Fatalf("status after change %q", s)
	}
	// f4: the settings that may change (model is sessionMutable, mode not).
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF4})
	v := viewText(m)
	if !strings.Contains(v, "Session settings") || !strings.Contains(v, "‹ Two ›") || strings.Contains(v, "│ Mode ") {
		t.Fatalf("settings form:\n%s", v)
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	fb := m.c.Backend.(*steerBackend)
	d := fb.lastDispatch(t)
	if cc, ok := d.action.(*ahpwire.SessionConfigChanged); !ok || d.channel != testSession || len(cc.Config) != 1 || string(cc.Config["model"]) == `"m2"` {
		t.Fatalf("settings change %+v on %s", d.action, d.channel)
	}
}

func TestOpenSessionStaysReadAndTerminalHint(t *testing.T) {
	m, be := newSteerModel(t, 120, 30)
	m = openChat(t, m, chatState(nil, nil))
	env := connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: testSession, ServerSeq: 7,
		Action: &ahpwire.SessionIsReadChanged{IsRead: false}}}}
	m = send(t, m, env)
	d := be.lastDispatch(t)
	if r, ok := d.action.(*ahpwire.SessionIsReadChanged); !ok || !r.IsRead || d.channel != testSession {
		t.Fatalf("open session not marked read again: %+v", d.action)
	}
	m = typeText(t, m, "!ls")
	if v := viewText(m); !strings.Contains(v, "!command runs in the host's terminal") {
		t.Fatalf("no terminal hint:\n%s", v)
	}
}

// TestExportPagesInTheWholeChat: with older turns still on the host, export
// (and copy-all) first page them in, then write every turn, oldest first.
func TestExportPagesInTheWholeChat(t *testing.T) {
	m, be := pagedChat(t)
	m = send(t, m, keyPress("e"))
	if n := fetchedCount(be); n != 1 {
		t.Fatalf("export did not page in older turns (%d fetches)", n)
	}
	if files, _ := filepath.Glob("ahptui-*.md"); len(files) != 0 {
		t.Fatalf("exported before the whole chat was loaded: %v", files)
	}
	// Page 1 arrives with a further cursor: paging goes on.
	m = send(t, m, envelope(3, &ahpwire.ChatTurnsLoaded{Turns: []ahpwire.Turn{finishedTurn("t3", "middle question", "middle answer")}, TurnsNextCursor: "c2"}))
	m = send(t, m, fetchedEvent("c1", nil))
	if n := fetchedCount(be); n != 2 {
		t.Fatalf("paging stopped after one page (%d fetches)", n)
	}
	// The last page: no cursor left, so the export runs.
	m = send(t, m, envelope(4, &ahpwire.ChatTurnsLoaded{Turns: []ahpwire.Turn{finishedTurn("t1", "oldest question", "oldest answer")}}))
	m = send(t, m, fetchedEvent("c2", nil))
	files, _ := filepath.Glob("ahptui-*.md")
	if len(files) != 1 {
		t.Fatalf("export files %v (status %q)", files, statusLine(m))
	}
	b, _ := os.ReadFile(files[0])
	s := string(b)
	i1, i3, i5 := strings.Index(s, "oldest answer"), strings.Index(s, "middle answer"), strings.Index(s, "newest answer")
	if i1 < 0 || i3 < 0 || i5 < 0 || i1 > i3 || i3 > i5 {
		t.Fatalf("export is not the whole chat in order:\n%s", s)
	}
}

// TestExportStopsVisiblyWhenPagingFails: a failed page gives an error and
// writes nothing partial.
func TestExportStopsVisiblyWhenPagingFails(t *testing.T) {
	m, _ := pagedChat(t)
	m = send(t, m, keyPress("e"))
	m = send(t, m, fetchedEvent("c1", errors.New("link down")))
	if files, _ := filepath.Glob("ahptui-*.md"); len(files) != 0 {
		t.Fatalf("a partial export was written: %v", files)
	}
	if s := statusLine(m); !strings.Contains(s, "could not load the whole chat") {
		t.Fatalf("status %q", s)
	}
}

// fetchedCount is the number of FetchTurns calls so far.
func fetchedCount(be *steerBackend) int {
	be.mu.Lock()
	defer be.mu.Unlock()
	return len(be.fetched)
}

// TestExportPagesInStreamOrder: the end of each fetchTurns comes through
// the client's event stream after its page (ahpclient's TurnsFetchedEvent,
// TestFetchTurnsEventFollowsItsPage), so the pager acts on it at once: no
// page is missed and nothing waits (the 600 ms pageSettle is gone).
func TestExportPagesInStreamOrder(t *testing.T) {
	m, be := pagedChat(t)
	m = send(t, m, keyPress("e"))
	if n := fetchedCount(be); n != 1 {
		t.Fatalf("export did not ask for older turns (%d fetches)", n)
	}
	m = send(t, m, envelope(3, &ahpwire.ChatTurnsLoaded{Turns: []ahpwire.Turn{finishedTurn("t1", "oldest question", "oldest answer")}}))
	nm, cmd := m.Update(fetchedEvent("c1", nil))
	m = nm.(Model)
	files, _ := filepath.Glob("ahptui-*.md")
	if len(files) != 0 {
		t.Fatalf("exported inside Update: %v", files)
	}
	m = runCmds(t, m, cmd, 0)
	if files, _ = filepath.Glob("ahptui-*.md"); len(files) != 1 {
		t.Fatalf("export files %v (status %q)", files, statusLine(m))
	}
	if b, _ := os.ReadFile(files[0]); !strings.Contains(string(b), "oldest answer") {
		t.Fatalf("the page is missing from the export:\n%s", b)
	}
}

// fetchedEvent is the client's TurnsFetchedEvent for testChat.
func fetchedEvent(cursor string, err error) tea.Msg {
	return connEventMsg{ev: ahpclient.TurnsFetchedEvent{Channel: testChat, Cursor: cursor, Err: err}}
}

// pagedChat opens, in a temporary working directory, a chat whose older
// turns are still on the host (cursor "c1") with the transcript focused;
// FetchTurns is held so the test delivers each page itself.
func pagedChat(t *testing.T) (Model, *steerBackend) {
	t.Helper()
	t.Chdir(t.TempDir())
	m, be := newSteerModel(t, 100, 30)
	cs := chatState([]ahpwire.Turn{finishedTurn("t5", "newest question", "newest answer")}, nil)
	cs.TurnsNextCursor = "c1"
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	be.mu.Lock()
	be.holdFetch = hold
	be.mu.Unlock()
	m = openChat(t, m, cs)
	return send(t, m, keyPress("tab")), be
}

// TestSteeringListInF2 (AHP 1.1): the F2 list shows the chat's steering
// message list before the queued messages; removing an entry sends
// chat/steeringMessageRemoved for it, editing one saves it in place with
// chat/steeringMessageSet, and steering entries are never reordered.
func TestSteeringListInF2(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	cs := chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working on it")))
	cs.SteeringMessages = []ahpwire.PendingMessage{{ID: "s1", Message: ahpwire.UserMessage("prefer small diffs")},
		{ID: "s2", Message: ahpwire.UserMessage("keep the API")}}
	cs.QueuedMessages = []ahpwire.PendingMessage{{ID: "q1", Message: ahpwire.UserMessage("then add docs")}}
	m = openChat(t, m, cs)
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF2})
	v := viewText(m)
	if !strings.Contains(v, "▸ 1. steer: prefer small diffs") || !strings.Contains(v, "2. steer: keep the API") || !strings.Contains(v, "3. then add docs") {
		t.Fatalf("F2 list:\n%s", v)
	}
	n := len(be.dispatched)
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModShift}) // a steering entry does not move
	if len(be.dispatched) != n {
		t.Fatalf("a steering entry was reordered: %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, keyPress("x"))
	if rm, ok := be.lastDispatch(t).action.(*ahpwire.ChatSteeringMessageRemoved); !ok || rm.ID != "s1" {
		t.Fatalf("remove %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, envelope(4, &ahpwire.ChatSteeringMessageRemoved{ID: "s1"}))
	m = send(t, m, keyPress("enter")) // edit s2
	if m.chat.Composer.Value() != "keep the API" || m.chat.Extras.Editing != "s2" {
		t.Fatalf("editing %q %q", m.chat.Composer.Value(), m.chat.Extras.Editing)
	}
	m = typeText(t, m, " stable")
	m = send(t, m, keyPress("enter"))
	if set, ok := be.lastDispatch(t).action.(*ahpwire.ChatSteeringMessageSet); !ok || set.SteeringMessage.ID != "s2" ||
		set.SteeringMessage.Message.Text != "keep the API stable" {
		t.Fatalf("edit saved as %+v", be.lastDispatch(t).action)
	}
}
