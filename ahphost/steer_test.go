package ahphost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// steerHost starts a host over a directory with a few files and returns an
// initialized client with a session's default chat.
func steerHost(t *testing.T, opts Options) (*wsClient, string, json.RawMessage) {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	for _, f := range []string{"main.go", "sub/notes.txt", ".git/config", "README.md"} {
		must(t, os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644))
	}
	opts.NoToken, opts.Dir = true, dir
	_, u := startHost(t, opts)
	w := dial(t, u, nil)
	init := w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	return w, chat, init
}

type completionItem struct {
	InsertText string `json:"insertText"`
	RangeStart *int   `json:"rangeStart"`
	RangeEnd   *int   `json:"rangeEnd"`
	Attachment struct {
		Type  string `json:"type"`
		Label string `json:"label"`
		URI   string `json:"uri"`
	} `json:"attachment"`
}

func complete(t *testing.T, w *wsClient, chat, text string, offset int) []completionItem {
	t.Helper()
	var res struct {
		Items []completionItem `json:"items"`
	}
	must(t, json.Unmarshal(w.call("completions", map[string]any{"channel": chat, "kind": "userMessage", "text": text, "offset": offset}), &res))
	return res.Items
}

func TestCompletionsOverWebSocket(t *testing.T) {
	w, chat, init := steerHost(t, Options{})
	var ir struct {
		Triggers []string `json:"completionTriggerCharacters"`
		Prefix   string   `json:"terminalCommandPrefix"`
	}
	must(t, json.Unmarshal(init, &ir))
	if strings.Join(ir.Triggers, "") != "@/" || ir.Prefix != "!" {
		t.Fatalf("trigger characters %v prefix %q, want @ and / and !", ir.Triggers, ir.Prefix)
	}
	w.sendMessage(chat, "t1", "!ls sub", 1)
	if e := w.actionOfType(chat, "chat/toolCallStart"); !strings.Contains(string(e.Action), "list_files") {
		t.Fatalf("!ls ran %s", e.Action)
	}
	w.actionOfType(chat, "chat/turnComplete")
	// "é" is one UTF-16 unit, "😀" two: the range is in UTF-16 units.
	text := "é😀 look at @not"
	items := complete(t, w, chat, text, 16)
	if len(items) != 1 || items[0].InsertText != "@sub/notes.txt" || *items[0].RangeStart != 12 || *items[0].RangeEnd != 16 {
		t.Fatalf("@not items %+v", items)
	}
	if a := items[0].Attachment; a.Type != "resource" || !strings.HasPrefix(a.URI, "file://") || !strings.HasSuffix(a.URI, "/sub/notes.txt") {
		t.Fatalf("attachment %+v", a)
	}
	all := complete(t, w, chat, "@", 1)
	var names []string
	for _, it := range all {
		names = append(names, it.InsertText)
	}
	if strings.Contains(strings.Join(names, " "), ".git") || len(all) != 3 {
		t.Fatalf("@ lists %v, want the 3 files outside .git", names)
	}
	cmds := complete(t, w, chat, "/demo s", 7)
	if len(cmds) != 4 || cmds[0].InsertText != "/demo slow 40" || cmds[1].InsertText != "/demo shell" ||
		cmds[2].InsertText != "/demo subagent" || cmds[3].InsertText != "/demo stream 3m" || *cmds[0].RangeStart != 0 {
		t.Fatalf("/demo s items %+v", cmds)
	}
	if got := complete(t, w, chat, "plain words", 5); len(got) != 0 {
		t.Fatalf("no trigger gave %+v", got)
	}
	if code, _ := w.callErr("completions", map[string]any{"channel": "ahp-chat:/nope", "kind": "userMessage", "text": "@", "offset": 1}); code != -32008 {
		t.Fatalf("unknown chat: code %d", code)
	}
	if code, _ := w.callErr("completions", map[string]any{"channel": chat, "kind": "symbols", "text": "@", "offset": 1}); code != -32602 {
		t.Fatalf("unknown kind: code %d", code)
	}
	if got := complete(t, w, chat, "@", 5); len(got) != 0 {
		t.Fatalf("offset beyond text gave %+v", got)
	}
}

// deltaText returns the content of a chat/delta envelope.
func deltaText(e envelope) string {
	var a struct {
		Content string `json:"content"`
	}
	_ = json.Unmarshal(e.Action, &a)
	return a.Content
}

func TestSteeringDemoReactsMidTurn(t *testing.T) {
	w, chat, _ := steerHost(t, Options{Pace: 3 * time.Millisecond})
	w.sendMessage(chat, "t1", "/demo slow 300", 1)
	w.action("first line", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/delta" })
	steer := func(seq uint64, id, text string) {
		w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": seq, "action": map[string]any{
			"type": "chat/pendingMessageSet", "kind": "steering", "id": id,
			"message": map[string]any{"text": text, "origin": map[string]any{"kind": "user"}}}})
	}
	steer(2, "s1", "focus on the tests")
	rm := w.action("steering consumed", func(e envelope) bool {
		return e.Channel == chat && e.typ() == "chat/pendingMessageRemoved"
	})
	if rm.Origin != nil || !strings.Contains(string(rm.Action), `"steering"`) || !strings.Contains(string(rm.Action), `"s1"`) {
		t.Fatalf("consumption %s origin %+v", rm.Action, rm.Origin)
	}
	var reaction strings.Builder
	w.action("reaction", func(e envelope) bool {
		if e.Channel == chat && e.typ() == "chat/delta" {
			reaction.WriteString(deltaText(e))
		}
		return strings.Contains(reaction.String(), "adjusting course")
	})
	if !strings.Contains(reaction.String(), "Steering received") || !strings.Contains(reaction.String(), "focus on the tests") {
		t.Fatalf("reaction %q", reaction.String())
	}
	steer(3, "s2", "please stop now")
	w.actionOfType(chat, "chat/turnComplete")
	st := readChat(t, w, chat, 0)
	if len(st.Turns) != 1 || st.Turns[0].State != "complete" {
		t.Fatalf("turns %+v", st.Turns)
	}
	var all strings.Builder
	for _, p := range st.Turns[0].ResponseParts {
		all.WriteString(p.Content)
	}
	if strings.Contains(all.String(), "line 300 of 300") || !strings.Contains(all.String(), "stopping here") {
		t.Fatalf("the agent did not stop when asked:\n%s", all.String())
	}
}

func TestSessionConfigOverWebSocket(t *testing.T) {
	w, _, _ := steerHost(t, Options{})
	var res struct {
		Schema struct {
			Properties map[string]struct {
				Enum           []string `json:"enum"`
				SessionMutable bool     `json:"sessionMutable"`
				EnumDynamic    bool     `json:"enumDynamic"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"schema"`
		Values map[string]string `json:"values"`
	}
	raw := w.call("resolveSessionConfig", map[string]any{"channel": "ahp-root://", "provider": "demo"})
	must(t, json.Unmarshal(raw, &res))
	if m := res.Schema.Properties["model"]; len(m.Enum) != 2 || !m.SessionMutable || !m.EnumDynamic {
		t.Fatalf("model property %+v", m)
	}
	if len(res.Schema.Properties["mode"].Enum) != 2 || res.Values["model"] != "demo-1" || res.Values["mode"] != "agent" {
		t.Fatalf("schema %+v values %+v", res.Schema, res.Values)
	}
	if !strings.Contains(string(raw), `"properties":{"model"`) {
		t.Fatalf("properties not in the host's order: %s", raw)
	}
	if code, m := w.callErr("resolveSessionConfig", map[string]any{"channel": "ahp-root://", "workingDirectory": "file:///no/such/dir"}); code != -32602 ||
		!strings.Contains(m.Error.Message, "does not exist") {
		t.Fatalf("missing dir: %d %+v", code, m.Error)
	}
	if code, _ := w.callErr("resolveSessionConfig", map[string]any{"channel": "ahp-root://", "provider": "nope"}); code != -32002 {
		t.Fatalf("unknown provider: %d", code)
	}
	var comp struct {
		Items []struct{ Value, Label string } `json:"items"`
	}
	must(t, json.Unmarshal(w.call("sessionConfigCompletions", map[string]any{"channel": "ahp-root://", "property": "model", "query": "TERSE"}), &comp))
	if len(comp.Items) != 1 || comp.Items[0].Value != "demo-2" {
		t.Fatalf("model completions %+v", comp.Items)
	}
	if code, _ := w.callErr("createSession", map[string]any{"channel": "ahp-session:/bad", "config": map[string]any{"mode": "yolo"}}); code != -32602 {
		t.Fatalf("invalid config accepted: %d", code)
	}
	w.call("createSession", map[string]any{"channel": "ahp-session:/cfg", "config": map[string]any{"model": "demo-2", "mode": "plan"}})
	var snap struct {
		Snapshot struct {
			State struct {
				DefaultChat string `json:"defaultChat"`
				Config      struct {
					Values map[string]string `json:"values"`
				} `json:"config"`
			} `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": "ahp-session:/cfg"}), &snap))
	if v := snap.Snapshot.State.Config.Values; v["model"] != "demo-2" || v["mode"] != "plan" {
		t.Fatalf("session config %+v", v)
	}
	chat := snap.Snapshot.State.DefaultChat
	readChat(t, w, chat, 0)
	w.sendMessage(chat, "t1", "refactor the parser", 1)
	w.actionOfType(chat, "chat/turnComplete")
	st := readChat(t, w, chat, 0)
	var text strings.Builder
	for _, p := range st.Turns[0].ResponseParts {
		if p.ToolCall != nil {
			t.Fatalf("plan mode ran a tool: %+v", p.ToolCall)
		}
		text.WriteString(p.Content)
	}
	if !strings.Contains(text.String(), "Plan mode (demo-2)") {
		t.Fatalf("plan answer %q", text.String())
	}
	change := func(seq uint64, v any) envelope {
		w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/cfg", "clientSeq": seq,
			"action": map[string]any{"type": "session/configChanged", "config": map[string]any{"mode": v}}})
		return w.action("configChanged", func(e envelope) bool {
			return e.typ() == "session/configChanged" && e.Origin != nil && e.Origin.ClientSeq == seq
		})
	}
	if e := change(2, "agent"); e.RejectionReason != "" {
		t.Fatalf("mode change rejected: %s", e.RejectionReason)
	}
	if e := change(3, "yolo"); !strings.Contains(e.RejectionReason, "must be one of") {
		t.Fatalf("invalid mode: %q", e.RejectionReason)
	}
	w.sendMessage(chat, "t2", "refactor the parser", 4)
	w.actionOfType(chat, "chat/toolCallStart")
}

func TestRenameArchiveReadState(t *testing.T) {
	w, chat, _ := steerHost(t, Options{})
	dispatch := func(seq uint64, a map[string]any) envelope {
		w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/s1", "clientSeq": seq, "action": a})
		return w.action("echo", func(e envelope) bool { return e.Origin != nil && e.Origin.ClientSeq == seq })
	}
	summary := func(what string, match func(string) bool) {
		w.waitFor(what, func(m wire) bool { return m.Method == "root/sessionSummaryChanged" && match(string(m.Params)) })
	}
	if e := dispatch(1, map[string]any{"type": "session/titleChanged", "title": "Parser work"}); e.RejectionReason != "" {
		t.Fatal(e.RejectionReason)
	}
	summary("title", func(p string) bool { return strings.Contains(p, `"title":"Parser work"`) })
	if e := dispatch(2, map[string]any{"type": "session/titleChanged", "title": "  "}); e.RejectionReason == "" {
		t.Fatal("empty title accepted")
	}
	dispatch(3, map[string]any{"type": "session/isArchivedChanged", "isArchived": true})
	summary("archived", func(p string) bool { return statusOf(p)&64 != 0 })
	var list struct {
		Items []struct {
			Status uint32 `json:"status"`
			Title  string `json:"title"`
		} `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"channel": "ahp-root://"}), &list))
	if len(list.Items) != 1 || list.Items[0].Status&64 == 0 || list.Items[0].Status&32 == 0 || list.Items[0].Title != "Parser work" {
		t.Fatalf("list %+v (want archived and read)", list.Items)
	}
	dispatch(4, map[string]any{"type": "session/isArchivedChanged", "isArchived": false})
	summary("unarchived", func(p string) bool { return statusOf(p)&64 == 0 })
	w.sendMessage(chat, "t1", "/demo help", 5)
	w.actionOfType(chat, "chat/turnComplete")
	summary("unread after a turn", func(p string) bool { s := statusOf(p); return s != 0 && s&32 == 0 })
	dispatch(6, map[string]any{"type": "session/isReadChanged", "isRead": true})
	summary("read", func(p string) bool { return statusOf(p)&32 != 0 })
}

// statusOf returns changes.status of root/sessionSummaryChanged params.
func statusOf(params string) uint32 {
	var p struct {
		Changes struct {
			Status uint32 `json:"status"`
		} `json:"changes"`
	}
	_ = json.Unmarshal([]byte(params), &p)
	return p.Changes.Status
}

func TestSubagentAndBackgroundWork(t *testing.T) {
	w, chat, _ := steerHost(t, Options{})
	w.sendMessage(chat, "t1", "/demo subagent", 1)
	shell := w.action("shell", func(e envelope) bool {
		return e.typ() == "chat/backgroundWorkSet" && strings.Contains(string(e.Action), `"kind":"shell"`)
	})
	if shell.Channel != chat {
		t.Fatalf("shell on %s", shell.Channel)
	}
	added := w.action("child chat", func(e envelope) bool { return e.typ() == "session/chatAdded" })
	var ca struct {
		Summary struct {
			Resource      string `json:"resource"`
			ParentChat    string `json:"parentChat"`
			Interactivity string `json:"interactivity"`
			Origin        struct {
				Kind, Chat, ToolCallID string
			} `json:"origin"`
		} `json:"summary"`
	}
	must(t, json.Unmarshal(added.Action, &ca))
	child := ca.Summary.Resource
	if ca.Summary.ParentChat != chat || ca.Summary.Interactivity != "read-only" || ca.Summary.Origin.Kind != "tool" || ca.Summary.Origin.Chat != chat {
		t.Fatalf("child summary %+v", ca.Summary)
	}
	sub := w.action("subagent work", func(e envelope) bool {
		return e.typ() == "chat/backgroundWorkSet" && strings.Contains(string(e.Action), `"kind":"subagent"`)
	})
	if !strings.Contains(string(sub.Action), `"chat":"`+child+`"`) {
		t.Fatalf("subagent work %s", sub.Action)
	}
	w.actionOfType(chat, "chat/turnComplete")
	st := readChat(t, w, child, 0)
	if len(st.Turns) != 1 || st.Turns[0].State != "complete" {
		t.Fatalf("child turns %+v", st.Turns)
	}
	var par struct {
		BackgroundWork []any `json:"backgroundWork"`
		Turns          []struct {
			ResponseParts []struct {
				ToolCall *struct {
					ToolName string `json:"toolName"`
					Content  []struct{ Type, Resource string }
				} `json:"toolCall"`
			} `json:"responseParts"`
		} `json:"turns"`
	}
	var sres struct {
		Snapshot struct {
			State json.RawMessage `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat}), &sres))
	must(t, json.Unmarshal(sres.Snapshot.State, &par))
	if len(par.BackgroundWork) != 0 {
		t.Fatalf("background work left: %+v", par.BackgroundWork)
	}
	found := false
	for _, p := range par.Turns[0].ResponseParts {
		if p.ToolCall != nil && p.ToolCall.ToolName == "subagent" {
			found = len(p.ToolCall.Content) == 1 && p.ToolCall.Content[0].Type == "subagent" && p.ToolCall.Content[0].Resource == child
		}
	}
	if !found {
		t.Fatalf("no subagent content linking %s in %s", child, sres.Snapshot.State)
	}
}

// lockedBuf is a goroutine-safe log sink.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestAuthenticateFlow(t *testing.T) {
	var logs lockedBuf
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w, chat, _ := steerHost(t, Options{Logger: log})
	w.sendMessage(chat, "t1", "/demo auth", 1)
	w.actionOfType(chat, "chat/toolCallAuthRequired")
	n := w.waitFor("auth/required", func(m wire) bool { return m.Method == "auth/required" })
	if !strings.Contains(string(n.Params), "https://demo-api.ahptui.invalid") {
		t.Fatalf("auth/required %s", n.Params)
	}
	if code, _ := w.callErr("authenticate", map[string]any{"channel": "ahp-root://", "resource": "https://elsewhere", "token": "x"}); code != -32602 {
		t.Fatalf("unknown resource: %d", code)
	}
	const secret = "s3cr3t-token-value"
	w.call("authenticate", map[string]any{"channel": "ahp-root://", "resource": "https://demo-api.ahptui.invalid", "token": secret})
	if e := w.actionOfType(chat, "chat/toolCallAuthResolved"); e.Origin != nil {
		t.Fatalf("auth resolved by a client? %+v", e.Origin)
	}
	w.actionOfType(chat, "chat/turnComplete")
	st := readChat(t, w, chat, 0)
	var text strings.Builder
	for _, p := range st.Turns[0].ResponseParts {
		text.WriteString(p.Content)
	}
	if !strings.Contains(text.String(), "Signed in") {
		t.Fatalf("answer %q", text.String())
	}
	if strings.Contains(logs.String(), secret) {
		t.Fatal("the token reached the log")
	}
	// Giving up instead of signing in ends the turn too.
	w.sendMessage(chat, "t2", "/demo auth", 2)
	e := w.actionOfType(chat, "chat/toolCallAuthRequired")
	var a struct {
		ToolCallID string `json:"toolCallId"`
	}
	must(t, json.Unmarshal(e.Action, &a))
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 3, "action": map[string]any{
		"type": "chat/toolCallComplete", "turnId": "t2", "toolCallId": a.ToolCallID,
		"result": map[string]any{"success": false, "pastTenseMessage": "gave up"}}})
	w.actionOfType(chat, "chat/turnComplete")
}

func TestCreateSessionRequiresSignInThenRetry(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, RequireSignIn: true})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	code, m := w.callErr("createSession", map[string]any{"channel": "ahp-session:/x"})
	if code != -32007 {
		t.Fatalf("code %d", code)
	}
	var data struct {
		Resources []struct {
			Resource string `json:"resource"`
		} `json:"resources"`
	}
	must(t, json.Unmarshal(m.Error.Data, &data))
	if len(data.Resources) != 1 || data.Resources[0].Resource != "https://demo-api.ahptui.invalid" {
		t.Fatalf("data %s", m.Error.Data)
	}
	w.call("authenticate", map[string]any{"channel": "ahp-root://", "resource": "https://demo-api.ahptui.invalid", "token": "t"})
	w.createSession("ahp-session:/x")
	// Signing out (empty token) requires signing in again.
	w.call("authenticate", map[string]any{"channel": "ahp-root://", "resource": "https://demo-api.ahptui.invalid", "token": ""})
	if code, _ := w.callErr("createSession", map[string]any{"channel": "ahp-session:/y"}); code != -32007 {
		t.Fatalf("after sign-out: code %d", code)
	}
}

// TestForwardToAStalledAgentFailsTheTurn: an agent that reads none of the
// client actions it is sent is never handed one fewer than the host
// accepted: when its buffer is full the turn fails visibly (a resumable
// chat/error naming why), the agent is stopped, and every accepted action
// was echoed as accepted.
func TestForwardToAStalledAgentFailsTheTurn(t *testing.T) {
	w, chat, _ := steerHost(t, Options{Agent: idleAgent{}})
	w.sendMessage(chat, "t1", "hello", 1)
	w.actionOfType(chat, "chat/turnStarted")
	for i := range clientBuffer + 1 {
		w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 2 + i, "action": map[string]any{
			"type": "chat/pendingMessageSet", "kind": "steering", "id": "s1",
			"message": map[string]any{"text": fmt.Sprintf("note %d", i), "origin": map[string]any{"kind": "user"}}}})
	}
	accepted := 0
	e := w.action("the turn's failure", func(e envelope) bool {
		if e.Channel == chat && e.typ() == "chat/pendingMessageSet" && e.Origin != nil && e.RejectionReason == "" {
			accepted++
		}
		return e.Channel == chat && e.typ() == "chat/error"
	})
	if accepted != clientBuffer+1 {
		t.Fatalf("%d steering messages accepted before the failure, want %d", accepted, clientBuffer+1)
	}
	if s := string(e.Action); !strings.Contains(s, "agentNotReading") || !strings.Contains(s, "stopped reading") || !strings.Contains(s, `"resumable":true`) {
		t.Fatalf("the failure does not say why, or cannot be resumed: %s", s)
	}
}
