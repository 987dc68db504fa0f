package tui

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/picker"
)

// hostileStrings is what a hostile host puts in every string field it
// controls: escape sequences of every kind (OSC 52 clipboard write, OSC 8
// hyperlinks, title set, DCS, screen clears), C1 controls, bidi overrides,
// C0 controls, invalid UTF-8, huge and wide text, and markdown links whose
// target tries to break out of an OSC 8 hyperlink.
var hostileStrings = []string{
	"\x1b]52;c;SGVsbG8gd29ybGQ=\x07clip",
	"\x1b]8;;http://evil.example/\x1b\\click me\x1b]8;;\x1b\\",
	"\x1b]0;pwned title\x07\x1b]2;again\x1b\\",
	"\x1bP+q544e\x1b\\dcs\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\",
	"\x1b[2J\x1b[H\x1b[?1049l\x1b[6n\x1b[31mred\x1b[0m\x1bc\x1b7\x1b8",
	"\u009b31m c1 csi \u009d0;t\u009c \u0090dcs\u009c \u0085nel \u009f",
	"\u202eevil\u202c \u2066iso\u2069 \u200fRLM \u061c",
	"a\rb\bc\x07d\x00e\x7ff\tg\x0bh\x0ci\x1a",
	"trailing ESC \x1b",
	"unterminated OSC \x1b]52;c;AAAA",
	"bad utf8 \xff\xfe\xc2 \xed\xa0\x80",
	"[link](http://a.example/\x1b]52;c;AAAA\x07b) <http://evil.example/\x1b]0;x\x07y> [x](\x07)",
	"[ok](http://evil.example/a\"b'c<d>e%1b%5d52) ![img](file:///etc/passwd)",
	"```\n\x1b]52;c;QUFB\x07code\n```\n# \x1b[5mheading\n> quote \u009b2J\n- item \x1b]8;;x\x07",
	strings.Repeat("界", 100) + strings.Repeat("e\u0301", 50),
	strings.Repeat("x", 2000),
	strings.Repeat("line\n", 60),
}

// allHostile joins every short hostile string into one; hugeHostile joins
// the long ones.
var (
	allHostile  = strings.Join(hostileStrings[:14], " ")
	hugeHostile = strings.Join(hostileStrings[14:], " ")
)

// checkFrame asserts that one rendered frame is safe to write to a
// terminal: only SGR sequences and well-formed OSC 8 hyperlinks whose
// parameters and URI are printable, no C1 controls, no C0 controls other
// than newline, valid UTF-8, and a frame that fits w×h.
func checkHostileFrame(t *testing.T, step string, m Model, w, h int) {
	t.Helper()
	v := m.View()
	if bad := unsafeTitle(v.WindowTitle); bad != "" {
		t.Fatalf("%s: window title %q: %s", step, v.WindowTitle, bad)
	}
	s := v.Content
	if bad := unsafeFrame(s); bad != "" {
		t.Fatalf("%s (%dx%d): %s\n%q", step, w, h, bad, s)
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		t.Fatalf("%s (%dx%d): frame has %d lines", step, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s (%dx%d): line %d is %d cells wide: %q", step, w, h, i, lw, ansi.Strip(l))
		}
	}
}

// unsafeTitle reports why a window title could break out of the OSC that
// carries it, or "".
func unsafeTitle(s string) string {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return "control character in window title"
		}
	}
	if !utf8.ValidString(s) {
		return "invalid UTF-8 in window title"
	}
	if bad := unsafeOutput(s); bad != "" {
		return bad + " in window title"
	}
	if utf8.RuneCountInString(s) > render.MaxTitleColumns+len("ahptui — ") {
		return "window title longer than the cap"
	}
	return ""
}

// unsafeFrame reports the first unsafe thing in s, or "".
func unsafeFrame(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, why := trustedEscape(s[i:])
			if why != "" {
				return why + " at " + quoteAround(s, i)
			}
			i += n
			continue
		case c < 0x20 && c != '\n', c == 0x7f:
			return "C0 control at " + quoteAround(s, i)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x80 && r <= 0x9f {
			return "C1 control at " + quoteAround(s, i)
		}
		i += size
	}
	return ""
}

// trustedEscape returns the length of the SGR or OSC 8 sequence at the
// start of s, or why it is not one.
func trustedEscape(s string) (int, string) {
	if strings.HasPrefix(s, "\x1b[") {
		j := 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			return j + 1, ""
		}
		return 0, "non-SGR CSI"
	}
	if strings.HasPrefix(s, "\x1b]8;") {
		for j := 4; j < len(s); j++ {
			switch c := s[j]; {
			case c == 0x07:
				return j + 1, ""
			case c == 0x1b:
				if j+1 < len(s) && s[j+1] == '\\' {
					return j + 2, ""
				}
				return 0, "OSC 8 broken by ESC"
			case c < 0x20 || c == 0x7f:
				return 0, "control inside OSC 8"
			case c == 0xc2 && j+1 < len(s) && s[j+1] >= 0x80 && s[j+1] <= 0x9f:
				return 0, "C1 inside OSC 8"
			}
		}
		return 0, "unterminated OSC 8"
	}
	return 0, "untrusted escape sequence"
}

func quoteAround(s string, i int) string {
	a, b := max(0, i-40), min(len(s), i+40)
	return strings.ReplaceAll(string([]rune(strings.ToValidUTF8(s[a:b], "?"))), "\x1b", "⎋")
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostileChat is a chat state with h in every server-controlled string and
// absurd numbers wherever a number is shown.
func hostileChat(h string) ahpwire.ChatState {
	yes := true
	neg, huge := int64(-42), int64(math.MaxInt64)
	exit := math.MinInt32
	ref := func(uri string) ahpwire.ContentRef {
		return ahpwire.ContentRef{URI: uri, SizeHint: &huge, ContentType: h, Nonce: h}
	}
	done := ahpwire.Turn{
		ID: "t1", StartedAt: h, Duration: &neg,
		Message: ahpwire.ChatMessage{Text: h, Origin: ahpwire.UserMessage("").Origin},
		ResponseParts: []ahpwire.ResponsePart{
			ahpwire.MarkdownPart("t1.m1", h),
			ahpwire.ReasoningPart("t1.r1", h),
			{Kind: ahpwire.PartSystemNotification, ID: "t1.n", Notification: ahpwire.PlainPtr(h)},
			{Kind: ahpwire.PartContentRef, ID: "t1.c", Ref: &ahpwire.ContentRef{URI: "ahp-content:/" + h, ContentType: h}},
			{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolCompleted, ToolCallID: "done1", ToolName: h, DisplayName: h, Intention: h,
				InvocationMessage: &ahpwire.StringOrMarkdown{Text: h, Markdown: true}, ToolInput: ahpwire.InlineInput(`{"cmd":` + mustJSON(h) + `}`),
				Success: &yes, PastTenseMessage: ahpwire.PlainPtr(h),
				Content: []ahpwire.ToolResultContent{
					{Type: "text", Text: h},
					{Type: "terminal", Resource: "ahp-terminal:/" + h, Title: h, Result: &ahpwire.TerminalCommandResult{ExitCode: &exit, Preview: h}},
					{Type: "fileEdit", Before: &ahpwire.FileEditSide{URI: "file:///" + h, Content: ref("ahp-content:/b" + h)},
						After: &ahpwire.FileEditSide{URI: "file:///" + h, Content: ref("ahp-content:/a" + h)},
						Diff:  &ahpwire.FileEditDiffStats{Added: &huge, Removed: &neg}},
					{Type: "resource", URI: "https://" + h, ContentType: h, SizeHint: &neg},
					{Type: "embeddedResource", Data: h, ContentType: "text/plain"},
					{Type: "subagent", Resource: "ahp-chat:/" + h, Title: h, AgentName: h, Description: h},
					{Type: h, Text: h},
				},
			}},
			{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolCancelled, ToolCallID: "cx", ToolName: h, DisplayName: h, Reason: ahpwire.CancelDenied,
				ReasonMessage: ahpwire.PlainPtr(h), Error: &ahpwire.ToolError{Message: h, Code: h}}},
			{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolCompleted, ToolCallID: "fail", ToolName: h, DisplayName: h, Success: new(bool),
				Error: &ahpwire.ToolError{Message: h, Code: h}}},
			ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: h, Message: h, Stack: h}, false),
		},
		State: ahpwire.TurnComplete,
		Usage: &ahpwire.UsageInfo{InputTokens: &neg, OutputTokens: &huge, CacheReadTokens: &huge, Model: h},
	}
	active := &ahpwire.ActiveTurn{
		ID: "t2", StartedAt: "not a time " + h, Message: ahpwire.ChatMessage{Text: h},
		ResponseParts: ahpwire.PartsOf(
			ahpwire.MarkdownPart("t2.m1", h),
			ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolPendingConfirmation, ToolCallID: "tc1", ToolName: h, DisplayName: h,
				InvocationMessage: ahpwire.PlainPtr(h), ToolInput: ahpwire.InlineInput(h),
				ConfirmationTitle: &ahpwire.StringOrMarkdown{Text: h, Markdown: true},
				RiskAssessment:    &ahpwire.ToolCallRiskAssessment{Kind: h, Status: h, Safety: ahpwire.Ptr(-1e308), Reason: ahpwire.PlainPtr(h)},
				Edits: &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{{After: &ahpwire.FileEditSide{URI: "file:///" + h, Content: ref(h)},
					Diff: &ahpwire.FileEditDiffStats{Added: &neg, Removed: &huge}}}},
				Options: []ahpwire.ConfirmationOption{{ID: h, Label: h, Kind: "approve"}, {ID: "no", Label: h, Kind: h}},
			}},
			ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolRunning, ToolCallID: "tc2", ToolName: h, DisplayName: h, PartialInput: &h,
				InvocationMessage: ahpwire.PlainPtr(h)}},
			ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
				Status: ahpwire.ToolPendingResultConfirmation, ToolCallID: "tc3", ToolName: h, DisplayName: h,
				Success: &yes, PastTenseMessage: ahpwire.PlainPtr(h), Content: []ahpwire.ToolResultContent{{Type: "text", Text: h}}}},
			ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &ahpwire.ChatInputRequest{
				ID: "q1", Message: h, URL: "https://" + h,
				Questions: []ahpwire.ChatInputQuestion{
					{Kind: ahpwire.QuestionText, ID: "a", Title: h, Message: h, Required: &yes, Format: h},
					{Kind: ahpwire.QuestionSingleSelect, ID: "b", Title: h, Message: h, AllowFreeformInput: &yes,
						Options: []ahpwire.ChatInputOption{{ID: h, Label: h, Description: h, Recommended: &yes}, {ID: "2", Label: h}}},
					{Kind: ahpwire.QuestionBoolean, ID: "c", Title: h, Message: h},
					{Kind: ahpwire.QuestionNumber, ID: "d", Title: h, Message: h, Min: ahpwire.Ptr(1e308), Max: ahpwire.Ptr(-1e308),
						DefaultValue: json.RawMessage(mustJSON(h))},
					{Kind: h, ID: "e", Title: h, Message: h},
				},
			}},
			ahpwire.ReasoningPart("t2.r1", h)),
		Usage: &ahpwire.UsageInfo{InputTokens: &huge, OutputTokens: &neg, Model: h},
	}
	return ahpwire.ChatState{Resource: testChat, Title: h, Status: ahpwire.StatusInProgress,
		Turns: []ahpwire.Turn{done}, ActiveTurn: active}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHostileHostNeverReachesTheTerminal drives the root model with a
// hostile host's data in every server-controlled string and checks every
// frame (and the window title) at three widths.
func TestHostileHostNeverReachesTheTerminal(t *testing.T) {
	type tc struct {
		name  string
		h     string
		w, h2 int
	}
	var cases []tc
	for _, sz := range [][2]int{{20, 8}, {80, 24}, {200, 60}} {
		cases = append(cases, tc{fmt.Sprintf("all/%dx%d", sz[0], sz[1]), allHostile, sz[0], sz[1]})
	}
	cases = append(cases, tc{"huge/20x8", hugeHostile, 20, 8})
	for i, h := range hostileStrings[:14] { // the long ones are in "huge"
		cases = append(cases, tc{fmt.Sprintf("string%d/80x24", i), h, 80, 24})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			hostileRun(t, c.h, c.w, c.h2)
		})
	}
}

func hostileRun(t *testing.T, h string, w, ht int) {
	m, _ := newTestModel(t, w, ht)
	step := func(what string, msg any) {
		t.Helper()
		m = send(t, m, msg)
		checkHostileFrame(t, what, m, w, ht)
	}
	huge := int64(math.MaxInt64)
	// Picker: session list, agents, live notifications.
	step("sessions", connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{
		{Resource: "ahp-session:/" + h, Provider: h, Title: h, Status: ahpwire.StatusError, Activity: h, CreatedAt: ahpwire.Timestamp(h), ModifiedAt: ahpwire.Timestamp(h),
			WorkingDirectories: []string{h, h}, Changes: &ahpwire.ChangeStats{}},
		{Resource: "ahp-session:/b", Provider: "demo", Title: h, Status: ahpwire.SessionStatus(1<<30 + 7), ModifiedAt: ts(0), WorkingDirectories: []string{h}},
	}}}})
	step("agents", snapshotEvent(t, ahpwire.RootURI, ahpwire.RootState{Agents: []ahpwire.AgentInfo{
		{Provider: h, DisplayName: h, Description: h, Models: []ahpwire.SessionModelInfo{{ID: h, Provider: h, Name: h, MaxContextWindow: &huge}}},
		{Provider: "p2", DisplayName: h, Description: h},
	}}))
	step("sessionAdded", connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionAdded",
		Params: []byte(`{"channel":"ahp-root://","summary":{"resource":"ahp-session:/x","provider":` + jsonString(t, h) + `,"title":` + jsonString(t, h) + `,"status":1,"createdAt":"x","modifiedAt":"y"}}`)}})
	step("summaryChanged", connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionSummaryChanged",
		Params: []byte(`{"channel":"ahp-root://","session":"ahp-session:/b","changes":{"title":` + jsonString(t, h) + `}}`)}})
	step("wrong param types", connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionSummaryChanged",
		Params: []byte(`{"channel":7,"session":["x"],"changes":"nope"}`)}})
	step("new session", keyPress("ctrl+n"))
	step("agent down", keyPress("down"))
	step("agent esc", keyPress("esc"))
	step("help", keyPress("f1"))
	step("help esc", keyPress("esc"))

	// Open a session whose state is hostile, then a hostile chat.
	step("open", picker.OpenSessionMsg{Session: testSession})
	step("session", snapshotEvent(t, testSession, ahpwire.SessionState{Provider: h, Title: h, Activity: h, Lifecycle: ahpwire.LifecycleReady,
		WorkingDirectories: []string{h}, DefaultChat: testChat, CreationError: &ahpwire.ErrorInfo{ErrorType: h, Message: h},
		Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: h, Description: h, Activity: h, WorkingDirectories: []string{h}}}}))
	if m.chat == nil {
		t.Fatal("chat not opened")
	}
	step("chat", snapshotEvent(t, testChat, hostileChat(h)))
	env := func(seq uint64, ch string, a ahpwire.Action) connEventMsg {
		return connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: ch, ServerSeq: seq, Action: a}}}
	}
	neg := int64(-1 << 62)
	step("usage", env(10, testChat, &ahpwire.ChatUsage{TurnID: "t2", Usage: ahpwire.UsageInfo{InputTokens: &neg, OutputTokens: &huge, CacheReadTokens: &neg, Model: h}}))
	step("delta", env(11, testChat, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: h}))
	step("auth", env(12, testChat, &ahpwire.ChatToolCallAuthRequired{TurnID: "t2", ToolCallID: "tc2", Auth: ahpwire.McpAuthRequirement{
		Reason: h, Description: h, RequiredScopes: []string{h}, Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://" + h, ResourceName: h,
			AuthorizationServers: []string{h}, ResourceDocumentation: h}}}))
	step("content", env(13, testChat, &ahpwire.ChatToolCallContentChanged{TurnID: "t2", ToolCallID: "tc2",
		Content: []ahpwire.ToolResultContent{{Type: "terminal", Resource: "ahp-terminal:/" + h, Title: h, Result: &ahpwire.TerminalCommandResult{Preview: h}}}}))
	step("title", env(14, testSession, &ahpwire.SessionTitleChanged{Title: h}))
	step("unknown action", env(15, testChat, &ahpwire.UnknownAction{Type: h, Raw: json.RawMessage(`{"type":` + mustJSON(h) + `}`)}))
	step("unsubscribed channel", env(16, "ahp-chat:/"+h, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: h}))
	for _, k := range []string{"tab", "down", "enter", "down", "space", "tab", "esc", "pgup", "home", "end", "f1", "esc", "f5"} {
		step("key "+k, keyPress(k))
	}
	step("error", env(17, testChat, &ahpwire.ChatError{TurnID: "t2", Error: &ahpwire.ErrorInfo{ErrorType: h, Message: h, Stack: h}}))
	step("conn error", connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Reconnecting, Attempt: -3, Err: &hostileErr{h}}}})
	step("resize small", teaSize(w/2+1, ht/2+3))
	w, ht = w/2+1, ht/2+3
	checkHostileFrame(t, "after resize", m, w, ht)
}

type hostileErr struct{ s string }

func (e *hostileErr) Error() string { return e.s }
