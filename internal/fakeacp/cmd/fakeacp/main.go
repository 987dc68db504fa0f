// Command fakeacp is a scripted ACP agent for tests. It speaks ACP on
// stdin/stdout; the first word of each prompt (of its last text block)
// picks a script:
//
//	text        three message chunks ("Hello from the fake agent.")
//	thought     a thought, then text
//	plan        a plan of three entries, updated once, then text
//	usage       a usage_update and prompt usage
//	commands    available_commands_update (/review, /test)
//	title T...  session_info_update with the title T...
//	mode        says the current mode; model the model (models.go)
//	tool        a tool call asking permission with all four option kinds;
//	            says which option was chosen; "tool running" reports the
//	            call in_progress before it asks (opencode, Codex's apply_patch)
//	diff        writes hello.txt through fs/write_text_file with a diff
//	selfedit    asks to edit hello.txt, then writes it itself (Claude
//	            Code's Edit); "selfedit nometa" without the tool response,
//	            "selfedit late" unasked, written before it is announced,
//	            "selfedit askonly" the diff in the permission request only,
//	            "selfedit patch" as Codex's apply_patch (in_progress with the
//	            diff, then a request naming only the file)
//	selfwrite N the same, creating N (selfedit.go)
//	read P      fs/read_text_file P and says what came back
//	write P     fs/write_text_file P and says what came back
//	terminal    terminal/create `echo hi`, waits, reports output and exit
//	termdaemon  terminal/create of a command that leaves `setsid sleep 1000` behind, says its pid
//	interactive terminal/create `read line` (waits for typed input), then prints the pty's size
//	fail        a tool call that fails
//	refuse      stop reason refusal; maxtokens: max_tokens
//	retrying    a retry report on stderr, 500 ms, then text
//	crash       writes two stderr lines and exits 3
//	slow        100 chunks 50 ms apart (cancel stops it)
//	hang        never answers until cancelled
//	garbage     writes non-JSON lines to stdout, then text
//	bigline     writes a 100 MB line to stdout
//	flood N     N message chunks as fast as possible
//	children    starts `sleep 1000` in the background and says its pid
//	holdout     the same, the child holding the agent's stdout open
//	texts       says every text block of the prompt, joined by " | "
//	blocks      says the kinds of the prompt's content blocks
//	whoami      says which auth method signed in (auth.go)
//	session     says "pid P pgid G sid S" (session_unix.go)
//	Permission  (the bridge's follow-up telling a denial's reason) says
//	            "Reason received: " and the rest of the text
//	sessions    says how many session/new the agent answered ("sessions: N")
//	airretry    a retry warning as AIR's session failure, then text;
//	            airdown an error report, then the prompt fails (elicit.go)
//	ask         a form elicitation (AskUserQuestion's shape) and what came
//	            back; "ask url" a URL elicitation (elicit.go)
//	Continue    (the bridge's prompt resuming an interrupted reply) says
//	            "Continued after «E»." where E ends the text it quoted
//
// and the hostile scripts of hostile.go (fifo, readflood, race, daemon,
// stderrflood, spawn).
//
// Environment: FAKEACP_HANG_INIT=1 never answers initialize;
// FAKEACP_AUTH=1 offers two auth methods (see auth.go) and refuses
// session/new with "auth required" (-32000) until one signed in;
// FAKEACP_AUTH=prompt refuses session/prompt instead; FAKEACP_AUTH=none
// refuses session/new with no auth method at all;
// FAKEACP_LOAD=1 advertises loadSession (sessions are kept in
// FAKEACP_STATE, a directory) and replays their turns on load;
// FAKEACP_LOAD=late answers session/load after the first replayed message
// and sends the rest of the replay after its answer (as Gemini CLI 0.61
// does);
// FAKEACP_EMPTY_AFTER_CANCEL=1 ends the prompt after a cancelled one at
// once, empty (the old Claude Code adapter's bug);
// FAKEACP_DELETE=1 advertises session/delete (it removes the session's
// FAKEACP_STATE files); FAKEACP_MODELS=1 announces session models (models.go);
// FAKEACP_RESUME=1 advertises session/resume too (no replay), as Claude
// Code's adapter does.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

type fake struct {
	conn *sdk.AgentSideConnection
	mu   sync.Mutex
	sess map[string]*sess
	out  *os.File
	// authed is the auth method that signed in ("" = none yet); guarded by mu.
	authed string
	// news counts the session/new requests answered; guarded by mu.
	news int
}

type sess struct {
	cwd    string
	mode   string
	cancel context.CancelFunc
	// slowStart: the session was loaded with FAKEACP_LOAD=late; its next
	// prompt waits 200 ms (a model's round trip) before it answers.
	slowStart bool
	// broken: a prompt was cancelled and FAKEACP_EMPTY_AFTER_CANCEL=1
	// makes the next one end at once, empty (the old Claude adapter's bug).
	broken bool
}

func main() {
	f := &fake{sess: map[string]*sess{}, out: os.Stdout}
	f.initAuth()
	if modelsOn() {
		out := &stdoutWriter{w: scopeWriter{os.Stdout}}
		f.conn = sdk.NewAgentSideConnection(f, out, modelStdin(stallReader{os.Stdin}, out))
	} else {
		f.conn = sdk.NewAgentSideConnection(f, scopeWriter{os.Stdout}, stallReader{os.Stdin})
	}
	<-f.conn.Done()
}

func (f *fake) Initialize(ctx context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	if os.Getenv("FAKEACP_HANG_INIT") == "1" {
		select {}
	}
	noteElicitation(p.ClientCapabilities) // elicit.go
	noteAIR(p.ClientCapabilities)
	res := sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AuthMethods: []sdk.AuthMethod{}}
	res.AgentCapabilities.LoadSession = os.Getenv("FAKEACP_LOAD") == "1" || os.Getenv("FAKEACP_LOAD") == "late"
	if os.Getenv("FAKEACP_RESUME") == "1" {
		res.AgentCapabilities.SessionCapabilities.Resume = &sdk.SessionResumeCapabilities{}
	}
	if os.Getenv("FAKEACP_DELETE") == "1" {
		res.AgentCapabilities.SessionCapabilities.Delete = &sdk.SessionDeleteCapabilities{}
	}
	res.AgentCapabilities.PromptCapabilities.EmbeddedContext = true
	res.AuthMethods = f.authMethods()
	if len(res.AuthMethods) > 0 {
		res.AgentCapabilities.Auth.Logout = &sdk.LogoutCapabilities{}
	}
	return res, nil
}

func (f *fake) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if err := f.needAuth("1", "none"); err != nil {
		return sdk.NewSessionResponse{}, err
	}
	f.mu.Lock()
	f.news++
	id := fmt.Sprintf("fake-%d-%d", os.Getpid(), len(f.sess)+1)
	f.sess[id] = &sess{cwd: p.Cwd, mode: "ask"}
	f.mu.Unlock()
	f.save(id, "", "")
	if dir := os.Getenv("FAKEACP_STATE"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, id+".cwd"), []byte(p.Cwd), 0o600)
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(id), Modes: &sdk.SessionModeState{
		CurrentModeId:  "ask",
		AvailableModes: []sdk.SessionMode{{Id: "ask", Name: "Ask"}, {Id: "code", Name: "Code"}},
	}}, nil
}

// known reports whether session id was created in cwd: like Claude Code,
// which keeps sessions per project directory, the fake finds a session
// only in the directory it ran in.
func known(id sdk.SessionId, cwd string) bool {
	dir := os.Getenv("FAKEACP_STATE")
	if dir == "" {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, string(id))); err != nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, string(id)+".cwd"))
	return err != nil || string(b) == cwd // (no .cwd: any directory)
}

func (f *fake) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	dir := os.Getenv("FAKEACP_STATE")
	b, err := os.ReadFile(filepath.Join(dir, string(p.SessionId)))
	if dir == "" || err != nil || !known(p.SessionId, p.Cwd) {
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "unknown session"})
	}
	late := os.Getenv("FAKEACP_LOAD") == "late"
	f.mu.Lock()
	f.sess[string(p.SessionId)] = &sess{cwd: p.Cwd, mode: "ask", slowStart: late}
	f.mu.Unlock()
	var updates []sdk.SessionUpdate
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var h struct{ User, Agent string }
		if json.Unmarshal([]byte(line), &h) != nil {
			continue
		}
		updates = append(updates, sdk.UpdateUserMessageText(h.User), sdk.UpdateAgentMessageText(h.Agent))
	}
	if late && len(updates) > 1 {
		_ = f.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: updates[0]})
		go func() { // after the answer
			time.Sleep(10 * time.Millisecond)
			for _, u := range updates[1:] {
				_ = f.conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: p.SessionId, Update: u})
			}
		}()
		return sdk.LoadSessionResponse{}, nil
	}
	for _, u := range updates {
		_ = f.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: u})
	}
	return sdk.LoadSessionResponse{}, nil
}

// save appends one turn to the session's history file (FAKEACP_STATE).
func (f *fake) save(id, user, agent string) {
	dir := os.Getenv("FAKEACP_STATE")
	if dir == "" {
		return
	}
	fh, err := os.OpenFile(filepath.Join(dir, id), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer fh.Close()
	if user == "" {
		return
	}
	b, _ := json.Marshal(struct{ User, Agent string }{user, agent})
	_, _ = fh.Write(append(b, '\n'))
}

func (f *fake) ListSessions(ctx context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, nil
}

func (f *fake) ResumeSession(ctx context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	if os.Getenv("FAKEACP_RESUME") != "1" {
		return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound("session/resume")
	}
	if !known(p.SessionId, p.Cwd) {
		return sdk.ResumeSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "unknown session"})
	}
	f.mu.Lock()
	f.sess[string(p.SessionId)] = &sess{cwd: p.Cwd, mode: "ask"}
	f.mu.Unlock()
	return sdk.ResumeSessionResponse{}, nil
}

// UnstableDeleteSession forgets a session and its FAKEACP_STATE files.
func (f *fake) UnstableDeleteSession(ctx context.Context, p sdk.UnstableDeleteSessionRequest) (sdk.UnstableDeleteSessionResponse, error) {
	f.mu.Lock()
	delete(f.sess, string(p.SessionId))
	f.mu.Unlock()
	if dir := os.Getenv("FAKEACP_STATE"); dir != "" {
		_ = os.Remove(filepath.Join(dir, string(p.SessionId)))
		_ = os.Remove(filepath.Join(dir, string(p.SessionId)+".cwd"))
	}
	return sdk.UnstableDeleteSessionResponse{}, nil
}

func (f *fake) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}

func (f *fake) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.sess[string(p.SessionId)]; s != nil {
		s.mode = string(p.ModeId)
	}
	return sdk.SetSessionModeResponse{}, nil
}

func (f *fake) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}

func (f *fake) Cancel(ctx context.Context, p sdk.CancelNotification) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.sess[string(p.SessionId)]; s != nil && s.cancel != nil {
		s.cancel()
	}
	return nil
}

// Prompt runs the script the prompt's first word names.
func (f *fake) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	if err := f.needAuth("prompt"); err != nil {
		return sdk.PromptResponse{}, err
	}
	f.mu.Lock()
	s := f.sess[string(p.SessionId)]
	if s == nil {
		f.mu.Unlock()
		return sdk.PromptResponse{}, sdk.NewInvalidParams(map[string]any{"error": "unknown session"})
	}
	if s.broken {
		s.broken = false
		f.mu.Unlock()
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	slowStart := s.slowStart
	s.slowStart = false
	f.mu.Unlock()
	defer cancel()
	if slowStart {
		time.Sleep(200 * time.Millisecond)
	}
	var text, last string
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
			last = b.Text.Text
		}
	}
	r := &run{f: f, s: s, id: p.SessionId, ctx: ctx, prompt: p}
	stop, err := r.script(strings.Fields(last)) // the last text block: the user's (the host may put its notes first)
	if ctx.Err() != nil {
		if os.Getenv("FAKEACP_EMPTY_AFTER_CANCEL") == "1" {
			f.mu.Lock()
			s.broken = true
			f.mu.Unlock()
		}
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	f.save(string(p.SessionId), text, r.said)
	res := sdk.PromptResponse{StopReason: stop}
	if r.usage {
		cached := 3
		res.Usage = &sdk.Usage{InputTokens: 11, OutputTokens: 22, TotalTokens: 33, CachedReadTokens: &cached}
	}
	return res, nil
}

// run is one prompt.
type run struct {
	f      *fake
	s      *sess
	id     sdk.SessionId
	ctx    context.Context
	prompt sdk.PromptRequest
	said   string
	usage  bool
}

func (r *run) send(u sdk.SessionUpdate) {
	_ = r.f.conn.SessionUpdate(r.ctx, sdk.SessionNotification{SessionId: r.id, Update: u})
}

func (r *run) say(s string) {
	r.said += s
	r.send(sdk.UpdateAgentMessageText(s))
}

func (r *run) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.s.cwd, p)
}

func (r *run) script(w []string) (sdk.StopReason, error) {
	word, arg := "text", ""
	if len(w) > 0 {
		word = w[0]
	}
	if len(w) > 1 {
		arg = strings.Join(w[1:], " ")
	}
	if ok, stop, err := r.hostile(word, arg); ok { // hostile.go
		return stop, err
	}
	switch word {
	case "whoami":
		r.say(r.f.whoami())
	case "airretry", "airdown": // AIR session failures (elicit.go)
		return r.air(word)
	case "session": // its pid, process group and session (session_unix.go)
		r.say(sessionIDs())
	case "ask": // a form (or "ask url": a URL) elicitation (elicit.go)
		return r.ask(arg)
	case "Permission": // the bridge's follow-up after a denial with a reason
		r.say("Reason received: " + arg)
	case "Continue": // the bridge's prompt resuming an interrupted reply
		r.say("Continued after «" + quotedEnd(r.prompt) + "».")
	case "sessions":
		r.f.mu.Lock()
		n := r.f.news
		r.f.mu.Unlock()
		r.say(fmt.Sprintf("sessions: %d", n))
	case "thought":
		r.send(sdk.UpdateAgentThoughtText("Let me think about "))
		r.send(sdk.UpdateAgentThoughtText("this."))
		r.say("Thought done.")
	case "plan":
		e := func(c string, st sdk.PlanEntryStatus) sdk.PlanEntry {
			return sdk.PlanEntry{Content: c, Priority: sdk.PlanEntryPriorityMedium, Status: st}
		}
		r.send(sdk.UpdatePlan(e("Read the code", sdk.PlanEntryStatusInProgress), e("Write the fix", sdk.PlanEntryStatusPending), e("Run the tests", sdk.PlanEntryStatusPending)))
		r.send(sdk.UpdatePlan(e("Read the code", sdk.PlanEntryStatusCompleted), e("Write the fix", sdk.PlanEntryStatusInProgress), e("Run the tests", sdk.PlanEntryStatusPending)))
		r.say("Planned.")
	case "usage":
		r.send(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 1234, Size: 200000}})
		r.usage = true
		r.say("Counted.")
	case "commands":
		r.send(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: []sdk.AvailableCommand{
			{Name: "review", Description: "Review the changes"}, {Name: "test", Description: "Run the tests"}}}})
		r.say("Commands sent.")
	case "title":
		r.send(sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{Title: &arg}})
		r.say("Titled.")
	case "mode":
		r.say("Mode: " + r.s.mode + ".")
	case "model":
		r.say("Model: " + modelOf(r.id) + ".")
	case "setmode": // the agent switches its own mode (current_mode_update)
		r.f.mu.Lock()
		r.s.mode = arg
		r.f.mu.Unlock()
		r.send(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(arg)}})
		r.say("Switched to " + arg + ".")
	case "options": // the agent announces a new option (config_option_update)
		opts := sdk.SessionConfigSelectOptionsUngrouped{{Value: "low", Name: "Low"}, {Value: "high", Name: "High"}}
		r.send(sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{ConfigOptions: []sdk.SessionConfigOption{{
			Select: &sdk.SessionConfigOptionSelect{Id: "effort", Name: "Effort", Type: "select", CurrentValue: "low",
				Options: sdk.SessionConfigSelectOptions{Ungrouped: &opts}}}}}})
		r.say("Options sent.")
	case "tool":
		return r.tool(arg == "running")
	case "diff":
		return r.diff()
	case "selfedit", "selfwrite":
		return r.selfEdit(word, arg)
	case "read":
		res, err := r.f.conn.ReadTextFile(r.ctx, sdk.ReadTextFileRequest{SessionId: r.id, Path: r.path(arg)})
		if err != nil {
			r.say("read error: " + err.Error())
		} else {
			r.say("read: " + res.Content)
		}
	case "write":
		_, err := r.f.conn.WriteTextFile(r.ctx, sdk.WriteTextFileRequest{SessionId: r.id, Path: r.path(arg), Content: "pwned\n"})
		if err != nil {
			r.say("write error: " + err.Error())
		} else {
			r.say("written")
		}
	case "terminal":
		return r.terminal("sh", []string{"-c", "echo hi from the terminal; exit 7"})
	case "termdaemon": // a terminal whose command leaves a daemon behind (once setsid ran: the hangup of the pty's session would end it before)
		return r.terminal("sh", []string{"-c", "setsid sleep 1000 >/dev/null 2>&1 & echo daemon $!; sleep 1; exit 0"})
	case "interactive":
		return r.terminal("sh", []string{"-c", "printf 'type: '; read line; echo got $line; echo size $(stty size)"})
	case "fail":
		r.send(sdk.StartToolCall("t-fail", "Run the broken tool", sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
		r.send(sdk.UpdateToolCall("t-fail", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed), sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("boom: the tool broke"))})))
		r.say("The tool failed.")
	case "refuse":
		r.say("I will not.")
		return sdk.StopReasonRefusal, nil
	case "maxtokens":
		r.say("Out of tokens")
		return sdk.StopReasonMaxTokens, nil
	case "retrying": // a retry report on stderr (as Gemini CLI's), then the answer
		fmt.Fprintln(os.Stderr, "Attempt 1 failed with status 429. Retrying with backoff...")
		select {
		case <-r.ctx.Done():
			return sdk.StopReasonCancelled, nil
		case <-time.After(500 * time.Millisecond): // the host reads stderr and stdout apart
		}
		r.say("Answered after a retry.")
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: fake crash line 1")
		fmt.Fprintln(os.Stderr, "fatal: fake crash line 2 token=sk-ant-secret")
		os.Exit(3)
	case "slow":
		for i := 0; i < 100; i++ {
			select {
			case <-r.ctx.Done():
				return sdk.StopReasonCancelled, nil
			case <-time.After(50 * time.Millisecond):
			}
			r.say(fmt.Sprintf("chunk %d. ", i))
		}
	case "hang":
		<-r.ctx.Done()
		return sdk.StopReasonCancelled, nil
	case "garbage":
		fmt.Fprintln(os.Stdout, "this is not json")
		fmt.Fprintln(os.Stdout, "{\"jsonrpc\":\"2.0\",broken")
		r.say("Still here.")
	case "bigline":
		chunk := []byte(strings.Repeat("x", 1<<20))
		for i := 0; i < 100; i++ {
			if _, err := os.Stdout.Write(chunk); err != nil {
				break
			}
		}
		os.Stdout.Write([]byte("\n"))
	case "flood":
		n, _ := strconv.Atoi(arg)
		for i := 0; i < n; i++ {
			r.send(sdk.UpdateAgentMessageText("x"))
		}
		r.said = "flooded"
	case "texts": // every text block of the prompt, joined by " | "
		var texts []string
		for _, b := range r.prompt.Prompt {
			if b.Text != nil {
				texts = append(texts, b.Text.Text)
			}
		}
		r.say(strings.Join(texts, " | "))
	case "blocks":
		var kinds []string
		for _, b := range r.prompt.Prompt {
			switch {
			case b.Text != nil:
				kinds = append(kinds, "text")
			case b.ResourceLink != nil:
				kinds = append(kinds, "link:"+b.ResourceLink.Uri)
			case b.Resource != nil:
				kinds = append(kinds, "resource")
			case b.Image != nil:
				kinds = append(kinds, "image")
			}
		}
		r.say(strings.Join(kinds, ","))
	case "children", "holdout":
		cmd := exec.Command("sleep", "1000")
		if word == "holdout" {
			cmd.Stdout = os.Stdout // the child holds the agent's stdout open
		}
		if err := cmd.Start(); err != nil {
			return "", err
		}
		r.say(fmt.Sprintf("child pid %d", cmd.Process.Pid))
	default:
		r.say("Hello ")
		r.say("from the fake ")
		r.say("agent.")
	}
	return sdk.StopReasonEndTurn, nil
}

// tool asks permission with every option kind and reports the choice;
// running: the call is reported in_progress before the request.
func (r *run) tool(running bool) (sdk.StopReason, error) {
	status := sdk.ToolCallStatusPending
	if running {
		status = sdk.ToolCallStatusInProgress
	}
	r.send(sdk.StartToolCall("t-1", "Run echo hello", sdk.WithStartKind(sdk.ToolKindExecute),
		sdk.WithStartStatus(status), sdk.WithStartRawInput(map[string]any{"command": "echo hello"})))
	res, err := r.f.conn.RequestPermission(r.ctx, sdk.RequestPermissionRequest{
		SessionId: r.id,
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: "t-1"},
		Options: []sdk.PermissionOption{
			{OptionId: "yes", Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "always", Name: "Always allow echo", Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
			{OptionId: "never", Name: "Never allow echo", Kind: sdk.PermissionOptionKindRejectAlways},
		},
	})
	if err != nil {
		return "", err
	}
	if res.Outcome.Cancelled != nil {
		return sdk.StopReasonCancelled, nil
	}
	opt := string(res.Outcome.Selected.OptionId)
	if opt == "yes" || opt == "always" {
		r.send(sdk.UpdateToolCall("t-1", sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
		r.send(sdk.UpdateToolCall("t-1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("hello"))})))
	} else {
		r.send(sdk.UpdateToolCall("t-1", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
	}
	r.say("chosen: " + opt)
	return sdk.StopReasonEndTurn, nil
}

// diff edits hello.txt through the client's fs.
func (r *run) diff() (sdk.StopReason, error) {
	p := r.path("hello.txt")
	old := ""
	if res, err := r.f.conn.ReadTextFile(r.ctx, sdk.ReadTextFileRequest{SessionId: r.id, Path: p}); err == nil {
		old = res.Content
	}
	newText := old + "hello from the fake agent\n"
	r.send(sdk.StartToolCall("t-edit", "Edit hello.txt", sdk.WithStartKind(sdk.ToolKindEdit), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
		sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: p}}),
		sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolDiffContent(p, newText, old)})))
	if _, err := r.f.conn.WriteTextFile(r.ctx, sdk.WriteTextFileRequest{SessionId: r.id, Path: p, Content: newText}); err != nil {
		r.send(sdk.UpdateToolCall("t-edit", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
		r.say("write failed: " + err.Error())
		return sdk.StopReasonEndTurn, nil
	}
	r.send(sdk.UpdateToolCall("t-edit", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	r.say("Edited hello.txt.")
	return sdk.StopReasonEndTurn, nil
}

// terminal runs a command in a client terminal and reports its output.
func (r *run) terminal(cmd string, args []string) (sdk.StopReason, error) {
	t, err := r.f.conn.CreateTerminal(r.ctx, sdk.CreateTerminalRequest{SessionId: r.id, Command: cmd, Args: args})
	if err != nil {
		r.say("terminal error: " + err.Error())
		return sdk.StopReasonEndTurn, nil
	}
	r.send(sdk.StartToolCall("t-term", "Run "+cmd, sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
		sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(t.TerminalId)})))
	ex, err := r.f.conn.WaitForTerminalExit(r.ctx, sdk.WaitForTerminalExitRequest{SessionId: r.id, TerminalId: t.TerminalId})
	if err != nil {
		return "", err
	}
	out, err := r.f.conn.TerminalOutput(r.ctx, sdk.TerminalOutputRequest{SessionId: r.id, TerminalId: t.TerminalId})
	if err != nil {
		return "", err
	}
	_, _ = r.f.conn.ReleaseTerminal(r.ctx, sdk.ReleaseTerminalRequest{SessionId: r.id, TerminalId: t.TerminalId})
	r.send(sdk.UpdateToolCall("t-term", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	code := -1
	if ex.ExitCode != nil {
		code = *ex.ExitCode
	}
	r.say(fmt.Sprintf("exit %d, output %q", code, strings.TrimSpace(out.Output)))
	return sdk.StopReasonEndTurn, nil
}

// quotedEnd returns the last 24 characters of the text the prompt quotes
// between « and » (what a resumed reply had shown).
func quotedEnd(p sdk.PromptRequest) string {
	var text string
	for _, b := range p.Prompt {
		if b.Text != nil {
			text = b.Text.Text
		}
	}
	i, j := strings.Index(text, "«"), strings.LastIndex(text, "»")
	if i < 0 || j < i {
		return ""
	}
	q := []rune(text[i+len("«") : j])
	return string(q[max(0, len(q)-24):])
}
