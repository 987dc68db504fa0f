package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

const execToken = "tok-EXEC-secret-77"

// startTestHost runs an embedded host with a token on loopback and gives
// the CLI a private state and config directory.
func startTestHost(t *testing.T) (url string, h *ahphost.Host) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_TOKEN", "")
	t.Setenv("AHPTUI_CONFIG", "")
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	return u, h
}

// runIn runs the CLI with stdin.
func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb})
	logb, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "ahptui", "ahptui.log"))
	for _, s := range []string{out.String(), errb.String(), string(logb)} {
		if strings.Contains(s, execToken) {
			t.Fatalf("token in the output or the log: %q", s)
		}
	}
	return code, out.String(), errb.String()
}

// ndjson decodes every stdout line as a JSON object.
func ndjson(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		evs = append(evs, m)
	}
	return evs
}

func hasEvent(evs []map[string]any, typ string, kv ...string) bool {
	for _, e := range evs {
		if e["type"] != typ {
			continue
		}
		ok := true
		for i := 0; i+1 < len(kv); i += 2 {
			ok = ok && e[kv[i]] == kv[i+1]
		}
		if ok {
			return true
		}
	}
	return false
}

func TestExecPlainMarkdown(t *testing.T) {
	u, _ := startTestHost(t)
	code, out, errs := runIn(t, "", "exec", u, "hello", "there")
	if code != execCompleted {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "scripted **ahptui demo agent**") || strings.ContainsRune(out, '\x1b') {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(errs, "session ") {
		t.Fatalf("session id not reported: %q", errs)
	}
	// The session is listed and exported (paged, sanitised).
	id := regexp.MustCompile(`ahptui: session (\S+)`).FindStringSubmatch(errs)[1]
	code, out, errs = runIn(t, "", "sessions", u)
	if code != exitOK || !strings.Contains(out, id) || !strings.HasPrefix(out, "ID") || !strings.Contains(out, "idle") {
		t.Fatalf("sessions: %d %q %q", code, out, errs)
	}
	code, out, _ = runIn(t, "", "sessions", "--json", u)
	if code != exitOK || !strings.Contains(out, `"resource":"ahp-session:/`+id+`"`) || !strings.Contains(out, `"status":"idle"`) {
		t.Fatalf("sessions --json: %d %q", code, out)
	}
	code, out, errs = runIn(t, "", "export", u, id)
	if code != exitOK || !strings.Contains(out, "## You\n\nhello there") || !strings.Contains(out, "demo agent") ||
		strings.HasPrefix(out, "# Chat\n") {
		t.Fatalf("export md: %d %q %q", code, out, errs)
	}
	code, out, _ = runIn(t, "", "export", u, id, "--format", "json")
	var st ahpwire.ChatState
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || len(st.Turns) != 1 || st.Turns[0].Message.Text != "hello there" {
		t.Fatalf("export json: %d %q", code, out)
	}
}

func TestExecJSONAndStdinPrompt(t *testing.T) {
	u, _ := startTestHost(t)
	code, out, errs := runIn(t, "hello from stdin", "exec", "--json", u)
	if code != execCompleted {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	evs := ndjson(t, out)
	if !hasEvent(evs, "turn_started") || !hasEvent(evs, "text") || !hasEvent(evs, "turn_end", "state", "complete") {
		t.Fatalf("events: %v", evs)
	}
	if end := evs[len(evs)-1]; end["type"] != "turn_end" || end["durationMs"] == nil || end["usage"] == nil {
		t.Fatalf("last event %v", end)
	}
	for _, e := range evs {
		if id, _ := e["partId"].(string); e["type"] == "text" && id == "" {
			t.Fatalf("text without its part's id: %v", e) // BlockDelta.BlockID
		}
	}
}

// TestExecApprovals: --approve always approves the tool calls; never
// denies them (exit 4); both are reported as approval_request events.
func TestExecApprovals(t *testing.T) {
	u, _ := startTestHost(t)
	code, out, errs := runIn(t, "", "exec", "--json", "--approve", "always", u, "/demo tools")
	evs := ndjson(t, out)
	if code != execCompleted || !hasEvent(evs, "approval_request", "decision", "approved") || !hasEvent(evs, "tool_call", "status", "completed") {
		t.Fatalf("always: exit %d %q events %v", code, errs, evs)
	}
	code, out, errs = runIn(t, "", "exec", "--approve", "always", u, "/demo tools")
	if code != execCompleted || !strings.Contains(errs, "approval for ") || !strings.Contains(errs, ": approved") ||
		!strings.Contains(errs, "completed") || strings.Contains(out, "ahptui:") {
		t.Fatalf("plain notes: exit %d stdout %q stderr %q", code, out, errs)
	}
	code, out, errs = runIn(t, "", "exec", "--json", "--approve", "never", u, "/demo tools")
	evs = ndjson(t, out)
	if code != execCancelled || !hasEvent(evs, "approval_request", "decision", "denied") {
		t.Fatalf("never: exit %d %q events %v", code, errs, evs)
	}
}

// TestExecAskWithoutTerminal: --approve ask with no controlling terminal
// stops with "needs input" (exit 5).
func TestExecAskWithoutTerminal(t *testing.T) {
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		f.Close()
		t.Skip("this test process has a controlling terminal")
	}
	u, _ := startTestHost(t)
	code, _, errs := runIn(t, "", "exec", u, "/demo tools")
	if code != execNeedsInput || !strings.Contains(errs, "no terminal to ask") {
		t.Fatalf("exit %d %q", code, errs)
	}
}

func TestExecQuestionErrorAndUsage(t *testing.T) {
	u, _ := startTestHost(t)
	code, out, errs := runIn(t, "", "exec", "--json", u, "/demo input")
	if code != execNeedsInput || !hasEvent(ndjson(t, out), "input_requested") || !strings.Contains(errs, "needs input") {
		t.Fatalf("question: exit %d %q %q", code, out, errs)
	}
	code, _, errs = runIn(t, "", "exec", u, "/demo error")
	if code != execFailed || !strings.Contains(errs, "ahptui: exec: Simulated upstream failure") {
		t.Fatalf("error: exit %d %q", code, errs) // the error part's message, shown as the turn's end
	}
	if code, _, errs = runIn(t, "", "exec", u); code != execUsageErr || !strings.Contains(errs, "needs a prompt") {
		t.Fatalf("no prompt: exit %d %q", code, errs)
	}
	if code, _, _ = runIn(t, "", "exec", "--approve", "maybe", u, "x"); code != execUsageErr {
		t.Fatalf("bad --approve: exit %d", code)
	}
	if code, out, _ = runIn(t, "", "exec", "--help"); code != 0 || !strings.Contains(out, "Exit codes") {
		t.Fatalf("exec --help: %d %q", code, out)
	}
	bad := strings.Replace(u, execToken, "wrong-token-value", 1)
	if code, _, errs = runIn(t, "", "exec", bad, "x"); code != execConnect || strings.Contains(errs, "wrong-token-value") {
		t.Fatalf("bad token: exit %d %q", code, errs)
	}
}

// TestNamedHostFromConfig: `@name` takes the URL and the token (token_env)
// from the config file; a bad config file is exit 2 naming file and line.
func TestNamedHostFromConfig(t *testing.T) {
	u, _ := startTestHost(t)
	bare := strings.Split(u, "?")[0]
	path := writeConfig(t, "default = \"box\"\n[hosts.box]\nurl = \""+bare+"\"\ntoken_env = \"BOX_TOKEN\"\n")
	t.Setenv("BOX_TOKEN", execToken)
	if code, out, errs := runIn(t, "", "exec", "@box", "hi"); code != execCompleted || out == "" {
		t.Fatalf("@box: exit %d %q", code, errs)
	}
	if code, out, _ := runIn(t, "", "sessions"); code != exitOK || !strings.HasPrefix(out, "ID") {
		t.Fatalf("default host: exit %d %q", code, out)
	}
	if code, out, _ := runIn(t, "", "config", "check"); code != exitOK || !strings.Contains(out, "ok (1 hosts: box; default: box)") {
		t.Fatalf("config check: %d %q", code, out)
	}
	if code, out, _ := runIn(t, "", "config", "path"); code != exitOK || strings.TrimSpace(out) != path {
		t.Fatalf("config path: %d %q", code, out)
	}
	if code, _, errs := runIn(t, "", "exec", "@nope", "hi"); code != execUsageErr || !strings.Contains(errs, `no host named "nope"`) {
		t.Fatalf("@nope: %d %q", code, errs)
	}
	t.Setenv("BOX_TOKEN", "")
	if code, _, errs := runIn(t, "", "exec", "@box", "hi"); code != execUsageErr || !strings.Contains(errs, "$BOX_TOKEN is not set") {
		t.Fatalf("unset token_env: %d %q", code, errs)
	}
	must(t, os.WriteFile(path, []byte("[hosts.box]\nurl = \""+bare+"\"\ntokn_env = \"X\"\n"), 0o600))
	for _, args := range [][]string{{"config", "check"}, {"@box"}, {"demo"}, {"exec", "@box", "hi"}} {
		code, _, errs := runIn(t, "", args...)
		if code != exitUsage || !strings.Contains(errs, path+":3: key hosts.box.tokn_env: unknown key") {
			t.Fatalf("%v with a bad config: %d %q", args, code, errs)
		}
	}
}

// TestConfigEdit: edit creates a private template and runs $EDITOR on it.
func TestConfigEdit(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("AHPTUI_CONFIG", "")
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "true")
	code, out, errs := runIn(t, "", "config", "edit")
	path := filepath.Join(dir, "ahptui", "config.toml")
	if code != exitOK || !strings.Contains(out, path+": ok (0 hosts") {
		t.Fatalf("edit: %d %q %q", code, out, errs)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("template: %v %v", st, err)
	}
}

// TestNoTargetIsUsageError: plain `ahptui` without a default host.
func TestNoTargetIsUsageError(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_CONFIG", "")
	code, _, errs := runIn(t, "")
	if code != exitUsage || !strings.Contains(errs, "missing command or URL") {
		t.Fatalf("%d %q", code, errs)
	}
}

// TestKeyOverridesFromConfig: [keys] rebinds the UI's keys; an unknown
// action or a clash is a config error at its line (exit 2).
func TestKeyOverridesFromConfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("AHPTUI_CONFIG", "")
	path := writeConfig(t, "theme = \"light\"\n[keys]\n\"global.quit\" = \"ctrl+q\"\n")
	cfg, err := parseArgs(nil, lookupEnv)
	must(t, err)
	f, err := loadConfigFile(cfg)
	must(t, err)
	must(t, applyConfig(&cfg, f))
	if cfg.keys == nil || cfg.keys.Global.Quit.Keys()[0] != "ctrl+q" || cfg.theme != "light" ||
		cfg.notify == nil || !cfg.notify.Bell || cfg.notify.Desktop != "" {
		t.Fatalf("keys %v theme %q", cfg.keys, cfg.theme)
	}
	must(t, os.WriteFile(path, []byte("[keys]\n\n\"global.nope\" = \"x\"\n"), 0o600))
	code, _, errs := runIn(t, "", "config", "check")
	if code != exitUsage || !strings.Contains(errs, path+`:3: key keys."global.nope": key override "global.nope": no action`) {
		t.Fatalf("bad override: %d %q", code, errs)
	}
}

// TestSessionsAllHosts: `sessions --all` lists every configured host's
// sessions, a row each with the host's name, the state (an approval told
// from a question) and the age; a host that is down is a row with its
// error, does not hold up the others, and makes the exit status 3.
func TestSessionsAllHosts(t *testing.T) {
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		f.Close()
		t.Skip("this test process has a controlling terminal (exec would ask there)")
	}
	u, _ := startTestHost(t)
	bare := strings.Split(u, "?")[0]
	dead := "ws://" + deadAddrFor(t) + "/"
	writeConfig(t, "[hosts.up]\nurl = \""+bare+"\"\ntoken_env = \"UP_TOKEN\"\n[hosts.down]\nurl = \""+dead+"\"\n")
	t.Setenv("UP_TOKEN", execToken)
	for _, prompt := range []string{"hello", "/demo input", "/demo tools"} {
		if code, _, errs := runIn(t, "", "exec", "@up", prompt); code != execCompleted && code != execNeedsInput {
			t.Fatalf("setup %q: %d %q", prompt, code, errs)
		}
	}
	code, out, errs := runIn(t, "", "sessions", "--all")
	if code != exitConnect {
		t.Fatalf("exit %d, want %d (a host did not answer): %q", code, exitConnect, errs)
	}
	// The down host refuses at once: it is reported as such, not after
	// inboxHostTimeout.
	if strings.Contains(out, "timed out") || strings.Contains(out, "deadline") {
		t.Fatalf("the refused host was waited for:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "HOST") {
		t.Fatalf("want a header, 3 sessions and the down host:\n%s", out)
	}
	want := []string{`^up\s+needs-approval\s+\d+s\s+ahp-session:/`, `^up\s+needs-input\s+\d+s\s+ahp-session:/`,
		`^up\s+done\s+\d+s\s+ahp-session:/`, `^down\s+unreachable\s+-\s+-\s+cannot connect`}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i+1]) {
			t.Fatalf("row %d: want %s:\n%s", i+1, re, out)
		}
	}
	code, out, _ = runIn(t, "", "sessions", "--all", "--json")
	evs := ndjson(t, out)
	if code != exitConnect || !hasEvent(evs, "host", "host", "down") || !hasEvent(evs, "session", "state", "needs-approval") ||
		!hasEvent(evs, "host", "state", "unreachable") {
		t.Fatalf("--json: %d %v", code, evs)
	}
	for _, e := range evs {
		if e["type"] == "session" && e["ageSeconds"] == nil {
			t.Fatalf("a session without its age: %v", e)
		}
	}
}

func deadAddrFor(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	a := ln.Addr().String()
	_ = ln.Close()
	return a
}
