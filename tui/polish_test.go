package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// runningMCPTool is a running tool call contributed by an MCP server (the
// only kind that can ask for authentication).
func runningMCPTool() ahpwire.ResponsePart {
	return ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolRunning, ToolCallID: "mcp1", ToolName: "github_search", DisplayName: "Search GitHub",
		Contributor: &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "github"}, Confirmed: "not-needed",
		InvocationMessage: ahpwire.PlainPtr("Search issues for `reconnect`"), ToolInput: ahpwire.InlineInput(`{"q":"reconnect"}`),
	}}
}

func authRequired() connEventMsg {
	return envelope(5, &ahpwire.ChatToolCallAuthRequired{TurnID: "t2", ToolCallID: "mcp1", Auth: ahpwire.McpAuthRequirement{
		Reason: "token missing", Description: "GitHub needs you to sign in to search private repositories.",
		Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://api.github.com"}, RequiredScopes: []string{"repo", "read:org"},
	}})
}

func TestAuthRequiredIsCountedAndExplained(t *testing.T) {
	m, fb := runningChat(t, runningMCPTool())
	if len(m.overlays) != 0 {
		t.Fatal("a running tool opened a prompt")
	}
	m = send(t, m, authRequired())
	n, ok := m.overlays[len(m.overlays)-1].(*authNotice)
	if !ok || len(m.overlays) != 1 {
		t.Fatalf("auth-required did not open the sign-in notice (%d overlays)", len(m.overlays))
	}
	_ = n
	v := viewText(m)
	for _, want := range []string{"Sign-in needed: Search GitHub", "https://api.github.com", "repo, read:org",
		"Sign in with a token", "another client", "s sign in", "f give up", "1 waiting for you (ctrl+p)"} {
		if !strings.Contains(v, want) {
			t.Errorf("sign-in notice lacks %q:\n%s", want, v)
		}
	}
	// esc waits: the call stays counted and ctrl+p brings the notice back.
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 || !strings.Contains(viewText(m), "1 waiting for you") {
		t.Fatalf("esc must close the notice and keep the count:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("ctrl+p"))
	if _, ok := m.overlays[0].(*authNotice); !ok {
		t.Fatal("ctrl+p did not reopen the sign-in notice")
	}
	// f gives up: chat/toolCallComplete with a failed result.
	m = send(t, m, keyPress("f"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallComplete)
	if !ok || a.TurnID != "t2" || a.ToolCallID != "mcp1" || a.Result.Success || a.Result.Error == nil || a.Result.Error.Message == "" {
		t.Fatalf("want a failed toolCallComplete for mcp1, got %#v", fb.lastDispatch(t).action)
	}
	if len(m.overlays) != 0 {
		t.Fatal("the notice stayed open after giving up")
	}
}

func TestAuthResolvedElsewhereClosesNotice(t *testing.T) {
	m, fb := runningChat(t, runningMCPTool())
	m = send(t, m, authRequired())
	if len(m.overlays) != 1 {
		t.Fatal("no notice")
	}
	m = send(t, m, envelope(6, &ahpwire.ChatToolCallAuthResolved{TurnID: "t2", ToolCallID: "mcp1"}))
	if len(m.overlays) != 0 || strings.Contains(viewText(m), "waiting for you") {
		t.Fatalf("resolved auth must close the notice and clear the count:\n%s", viewText(m))
	}
	if len(fb.dispatched) != 0 {
		t.Fatal("nothing should have been dispatched")
	}
}

func TestApprovedToolThatNeedsAuthIsPromptedAgain(t *testing.T) {
	// The same tool call first waits for approval, then (running) for
	// authentication: both must be prompted automatically.
	tool := runningMCPTool()
	tool.ToolCall.Status = ahpwire.ToolPendingConfirmation
	tool.ToolCall.Confirmed = ""
	m, _ := runningChat(t, tool)
	if _, ok := m.overlays[0].(*approvalPrompt); !ok {
		t.Fatal("no approval prompt")
	}
	m = send(t, m, keyPress("a"))
	m = send(t, m, envelope(4, &ahpwire.ChatToolCallConfirmed{TurnID: "t2", ToolCallID: "mcp1", Approved: true, Confirmed: ahpwire.ConfirmedUserAction}))
	m = send(t, m, authRequired())
	if len(m.overlays) != 1 {
		t.Fatalf("auth after approval not prompted (%d overlays)", len(m.overlays))
	}
	if _, ok := m.overlays[0].(*authNotice); !ok {
		t.Fatalf("want the sign-in notice, got %T", m.overlays[0])
	}
}

func TestResultReviewHintsAcceptReject(t *testing.T) {
	tool := pendingTool()
	tool.ToolCall.Status = ahpwire.ToolPendingResultConfirmation
	tool.ToolCall.Confirmed = "user-action"
	tool.ToolCall.Options = nil
	tool.ToolCall.Success = ahpwire.Ptr(true)
	tool.ToolCall.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: "ok  ./... 0.1s"}}
	m, fb := runningChat(t, tool)
	v := viewText(m)
	for _, want := range []string{"a/y accept", "d/n reject", "ok  ./... 0.1s"} {
		if !strings.Contains(v, want) {
			t.Errorf("result review lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "deny with reason") {
		t.Errorf("a result review cannot carry a reason:\n%s", v)
	}
	m = send(t, m, keyPress("r"))
	if len(fb.dispatched) != 0 || m.overlays[0].(*approvalPrompt).asking {
		t.Fatal("r must do nothing in a result review")
	}
}

func TestApprovalPromptShowsEditDiffAndKeepsKeysVisible(t *testing.T) {
	tool := pendingTool()
	tool.ToolCall.Options = nil
	var edits []ahpwire.FileEdit
	var b strings.Builder
	for i := range 60 {
		b.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	before := b.String()
	edits = append(edits, ahpwire.FileEdit{
		Before: &ahpwire.FileEditSide{URI: "file:///p/main.go", Content: ahpwire.ContentRef{URI: "data:text/plain," + strings.ReplaceAll(before, "\n", "%0A")}},
		After:  &ahpwire.FileEditSide{URI: "file:///p/main.go", Content: ahpwire.ContentRef{URI: "data:text/plain," + strings.ReplaceAll("NEW\n"+before, "\n", "%0A")}},
	})
	tool.ToolCall.Edits = &ahpwire.FileEditCollection{Items: edits}
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, activeTurn(tool)))
	v := viewText(m)
	if !strings.Contains(v, "+NEW") && !strings.Contains(v, "Edits") {
		// The diff may be below the fold; scroll to it.
		for range 40 {
			m = send(t, m, keyPress("down"))
		}
		v = viewText(m)
	}
	if !strings.Contains(v, "+NEW") {
		t.Errorf("the prompt does not show the edit's diff:\n%s", v)
	}
	// However far it scrolled, approve and deny stay on screen.
	if !strings.Contains(v, "a/y approve") || !strings.Contains(v, "d/n deny") {
		t.Errorf("approve/deny keys scrolled out of sight:\n%s", v)
	}
}

func TestStatusKeepsPendingVisibleWithLongError(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{
		Phase: ahpclient.Reconnecting, Attempt: 2,
		Err: errors.New("ahpclient: connect ws://127.0.0.1:36451: HTTP 503: failed to WebSocket dial: expected handshake response status code 101 but got 503")}}})
	lines := strings.Split(viewText(m), "\n")
	status := lines[len(lines)-1]
	if !strings.Contains(status, "Reconnecting 2") || !strings.Contains(status, "⚠ 1") {
		t.Fatalf("status lost the state or the pending count: %q", status)
	}
	if !strings.Contains(status, "Reconnecting 2: HTTP 503") || strings.Contains(status, "ahpclient:") {
		t.Fatalf("the reason is buried behind the package name and URL: %q", status)
	}
	if w := ansi.StringWidth(status); w > 100 {
		t.Fatalf("status is %d wide", w)
	}
}

func TestUsageIsTheCurrentTurns(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hi", "hello")}, nil))
	if !strings.Contains(viewText(m), "1.2k in · 340 out") {
		t.Fatal("idle chat must show the last turn's usage")
	}
	m = send(t, m, envelope(3, &ahpwire.ChatTurnStarted{TurnID: "t2", Message: ahpwire.UserMessage("again")}))
	if strings.Contains(viewText(m), "1.2k in") {
		t.Fatalf("a running turn shows the previous turn's usage:\n%s", viewText(m))
	}
}

func TestPickerHintsAndReturnSelectsLeftSession(t *testing.T) {
	m, fb := newTestModel(t, 100, 20)
	fb.sessions = testSessions()
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	v := viewText(m)
	if !strings.Contains(v, "ctrl+n new session") || !strings.Contains(v, "ctrl+x dispose") || !strings.Contains(v, "f1 help") {
		t.Fatalf("picker shows no key hints:\n%s", v)
	}
	// Open the third session, go back: the cursor is on it.
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("down"))
	m = send(t, m, openSessionMsg{Session: "ahp-session:/c"})
	ss := ahpwire.SessionState{Provider: "demo", Title: "Benchmark", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat}}}
	m = send(t, m, snapshotEvent(t, "ahp-session:/c", ss))
	m.picker.cursor = 0 // as if the list had been refreshed meanwhile
	m = send(t, m, keyPress("ctrl+s"))
	if m.screen != screenPicker || m.picker.selectedResource() != "ahp-session:/c" {
		t.Fatalf("back in the picker on %q, want the session just left", m.picker.selectedResource())
	}
}

func TestPickerEnterWithNoSessionsSaysHowToCreate(t *testing.T) {
	m, _ := newTestModel(t, 100, 20)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{}})
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "no session yet — ctrl+n creates one") {
		t.Fatalf("enter on an empty list gives no feedback:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	if strings.Contains(viewText(m), "no session yet —") {
		t.Fatal("the note outlives the next key")
	}
}

func TestEmptyChatSaysWhatToDo(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, nil))
	if !strings.Contains(viewText(m), "No messages yet") {
		t.Fatalf("empty chat is blank:\n%s", viewText(m))
	}
	checkFrame(t, m, 80, 24)
}

func TestHelpOverlayNarrowHasNoCutMarks(t *testing.T) {
	m, _ := newTestModel(t, 50, 16)
	m = send(t, m, keyPress("f1"))
	v := checkFrame(t, m, 50, 16)
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "… │") {
			t.Fatalf("help rows are cut although they fit:\n%s", v)
		}
	}
	if !strings.Contains(v, "of ") {
		t.Fatalf("help does not say it scrolls:\n%s", v)
	}
	before := v
	m = send(t, m, keyPress("pgdown"))
	if viewText(m) == before {
		t.Fatal("pgdown does not scroll the help")
	}
}

func TestOverlayRowsHaveNoCutWords(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", strings.Repeat("wordy text ", 40), strings.Repeat("answer words ", 200))},
		activeTurn(pendingTool())))
	v := checkFrame(t, m, 120, 40)
	in := false
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "╭") {
			in = true
		}
		if in {
			i := strings.IndexAny(l, "│╭╰")
			if i < 0 || strings.TrimSpace(l[:i]) != "" {
				t.Fatalf("text beside the dialog box: %q", l)
			}
		}
		if strings.Contains(l, "╰") {
			in = false
		}
	}
}

func TestStatusBarBackgroundHasNoHoles(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	lines := strings.Split(m.View().Content, "\n")
	bar := lines[len(lines)-1]
	// Every run of text on the bar is drawn with the bar's background: each
	// SGR sequence that precedes text sets it (lipgloss resets after every
	// styled segment, so a segment without it shows the default background).
	segs := strings.Split(bar, "\x1b[")
	if segs[0] != "" {
		t.Fatalf("text before any style: %q", segs[0])
	}
	for i, seg := range segs[1:] {
		end := strings.IndexByte(seg, 'm')
		if end < 0 {
			t.Fatalf("odd escape in %q", bar)
		}
		params, text := seg[:end], seg[end+1:]
		if text != "" && !strings.Contains(params, "48;") {
			t.Fatalf("segment %d %q of the status bar has no background: %q", i, text, bar)
		}
	}
}

func TestPromptOpeningWhileTypingIgnoresKeysBriefly(t *testing.T) {
	now := fixedNow
	fb := &fakeBackend{}
	m := New(Options{Backend: fb, Host: "h", Dark: true, Now: func() time.Time { return now },
		NewID: func() string { return "id" }, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	m = send(t, m, teaSize(100, 30))
	m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working"))))
	// The user types "an" in the composer; the approval arrives right then.
	m = typeText(t, m, "an")
	now = now.Add(200 * time.Millisecond)
	m = send(t, m, envelope(4, &ahpwire.ChatToolCallStart{TurnID: "t2", ToolCallID: "tc1", ToolName: "run_command", DisplayName: "Run command"}))
	m = send(t, m, envelope(5, &ahpwire.ChatToolCallReady{TurnID: "t2", ToolCallID: "tc1",
		InvocationMessage: ahpwire.Plain("Run `ls`"), ToolInput: ahpwire.InlineInput(`{"command":"ls"}`)}))
	if len(m.overlays) != 1 {
		t.Fatalf("no prompt (%d overlays)", len(m.overlays))
	}
	if !strings.Contains(viewText(m), "you were typing") {
		t.Fatalf("the guard is not shown:\n%s", viewText(m))
	}
	m = typeText(t, m, "d a")
	if len(fb.dispatched) != 0 || len(m.overlays) != 1 {
		t.Fatalf("keys typed as the prompt opened were taken as a decision: %v", fb.dispatched)
	}
	now = now.Add(promptGuard)
	m = send(t, m, promptGuardEndedMsg{})
	if strings.Contains(viewText(m), "you were typing") {
		t.Fatal("guard notice stays after the guard ended")
	}
	send(t, m, keyPress("a"))
	if a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !ok || !a.Approved {
		t.Fatalf("a after the guard must approve, got %#v", fb.lastDispatch(t).action)
	}
}

func TestPromptNotGuardedWhenIdle(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	send(t, m, keyPress("a"))
	if _, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !ok {
		t.Fatal("a prompt opened while idle must take keys at once")
	}
}

func TestHelpStartsWithTheCurrentScreen(t *testing.T) {
	m, _ := newTestModel(t, 80, 30)
	m = send(t, m, keyPress("f1"))
	v := viewText(m)
	if i, j := strings.Index(v, "Session picker"), strings.Index(v, "Global"); i < 0 || j < 0 || i > j {
		t.Fatalf("picker help does not start with the picker's keys:\n%s", v)
	}
}

func TestFormMarksTheFreeformRow(t *testing.T) {
	m, _ := runningChat(t, inputPart())
	m = send(t, m, keyPress("tab")) // -> language (single-select with free-form)
	m = send(t, m, keyPress("up"))  // wraps to the "other" row
	if !strings.Contains(viewText(m), "› other: ") {
		t.Fatalf("the free-form row does not show the cursor:\n%s", viewText(m))
	}
}

func TestMouseWheelMovesPickerCursor(t *testing.T) {
	m, _ := newTestModel(t, 100, 20)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.picker.cursor != 1 {
		t.Fatalf("wheel down: cursor %d", m.picker.cursor)
	}
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.picker.cursor != 0 {
		t.Fatalf("wheel up: cursor %d", m.picker.cursor)
	}
}

func TestMouseWheelScrollsHelpNotTheTranscript(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("f1"))
	before := viewText(m)
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if viewText(m) == before {
		t.Fatal("wheel does not scroll the help")
	}
	if !m.chat.tr.Following() {
		t.Fatal("wheel over the help scrolled the transcript behind it")
	}
}

func TestChatGoneFromHostSaysSoAndKeepsDraft(t *testing.T) {
	m, fb := runningChat(t)
	m = typeText(t, m, "my unsent draft")
	fb.mu.Lock()
	fb.subErr = map[string]error{
		testChat:    fmt.Errorf("ahpclient: subscribe: %w", &ahpwire.RPCError{Code: ahpwire.CodeNotFound, Message: "chat not found"}),
		testSession: fmt.Errorf("ahpclient: subscribe: %w", &ahpwire.RPCError{Code: ahpwire.CodeSessionNotFound, Message: "session not found"}),
	}
	fb.mu.Unlock()
	// The host restarted: both subscriptions are lost and cannot be renewed.
	m = send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: testSession}})
	m = send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: testChat}})
	v := viewText(m)
	if !strings.Contains(v, "this chat is gone from the host") || !strings.Contains(v, "ctrl+s sessions") {
		t.Fatalf("a vanished chat is not explained:\n%s", v)
	}
	if strings.Contains(v, "● working") || strings.Contains(v, "loading chat") {
		t.Fatalf("a vanished chat still claims to work or load:\n%s", v)
	}
	if m.chat.comp.Value() != "my unsent draft" {
		t.Fatalf("draft lost: %q", m.chat.comp.Value())
	}
	// A later snapshot (e.g. the host came back) clears the error.
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
	if strings.Contains(viewText(m), "is gone from the host") {
		t.Fatal("error stays after the chat loaded")
	}
}

func TestEscThatClosedAPromptDoesNotAlsoCancelTheTurn(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	m = send(t, m, keyPress("esc")) // closes the approval prompt ("later")
	m = send(t, m, keyPress("esc")) // the same esc, pressed twice
	if len(fb.dispatched) != 0 {
		t.Fatalf("a double esc on a prompt cancelled the turn: %#v", fb.lastDispatch(t).action)
	}
	m = send(t, m, keyPress("esc")) // a deliberate third esc cancels
	if _, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnCancelled); !ok {
		t.Fatal("esc after the debounce must cancel the turn")
	}
}
