package cli

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cfgfile "github.com/ahptui/ahptui/internal/config"
)

func TestParseArgs(t *testing.T) {
	env := func(k string) string {
		if k == "AHPTUI_TOKEN" {
			return "envtok"
		}
		return ""
	}
	cases := []struct {
		args    []string
		cmd     command
		url     string
		token   string
		wantErr string
	}{
		{args: []string{"demo"}, cmd: cmdDemo, token: "envtok"},
		{args: []string{"--log", "/tmp/x.log", "demo", "--theme", "light"}, cmd: cmdDemo, token: "envtok"},
		{args: []string{"ws://h:1/?tkn=abc"}, cmd: cmdAttach, url: "ws://h:1/?tkn=abc", token: "envtok"},
		{args: []string{"--token", "t1", "wss://h"}, cmd: cmdAttach, url: "wss://h", token: "t1"},
		{args: []string{"serve", "--addr", "127.0.0.1:0"}, cmd: cmdServe, token: "envtok"},
		{args: []string{"--help"}, cmd: cmdHelp},
		{args: []string{"-h"}, cmd: cmdHelp},
		{args: []string{"help"}, cmd: cmdHelp, token: "envtok"},
		{args: []string{"--version"}, cmd: cmdVersion},
		{args: nil, cmd: cmdAttach, token: "envtok"},
		{args: []string{"@work"}, cmd: cmdAttach, token: "envtok"},
		{args: []string{"@"}, wantErr: "@ needs a host name"},
		{args: []string{"ws+unix:///run/ahp.sock"}, cmd: cmdAttach, url: "ws+unix:///run/ahp.sock", token: "envtok"},
		{args: []string{"ws+unix://"}, wantErr: "no socket path"},
		{args: []string{"config", "check"}, cmd: cmdConfig, token: "envtok"},
		{args: []string{"config", "nope"}, wantErr: "config path|check|edit"},
		{args: []string{"exec", "--json", "hi"}, cmd: cmdExec, token: "envtok"},
		{args: []string{"sessions"}, cmd: cmdSessions, token: "envtok"},
		{args: []string{"http://h?tkn=secret"}, wantErr: "must start with ws://"},
		{args: []string{"ws://"}, wantErr: "has no host"},
		{args: []string{"demo", "extra"}, wantErr: "unexpected arguments"},
		{args: []string{"--bogus"}, wantErr: "flag provided but not defined"},
		{args: []string{"--theme", "pink", "demo"}, wantErr: "--theme"},
	}
	for _, c := range cases {
		cfg, err := parseArgs(c.args, env)
		if c.wantErr != "" {
			var ue *usageError
			if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: err %v, want usage error containing %q", c.args, err, c.wantErr)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("%v: error leaks the token: %v", c.args, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if cfg.cmd != c.cmd || cfg.url != c.url || (c.cmd != cmdHelp && c.cmd != cmdVersion && cfg.token != c.token) {
			t.Errorf("%v: got cmd %v url %q token %q", c.args, cfg.cmd, cfg.url, cfg.token)
		}
	}
	cfg, _ := parseArgs([]string{"serve", "--addr", "x", "--help"}, env)
	if strings.Join(cfg.subArgs, " ") != "--addr x --help" {
		t.Errorf("serve args %q", cfg.subArgs)
	}
}

func runCapture(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, stdio{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestRunExitCodes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if code, out, _ := runCapture(t, "--help"); code != exitOK || !strings.Contains(out, "Exit codes") {
		t.Errorf("--help: %d %q", code, out)
	}
	if code, out, _ := runCapture(t, "--version"); code != exitOK || !strings.HasPrefix(out, "ahptui ") {
		t.Errorf("--version: %d %q", code, out)
	}
	if code, _, errs := runCapture(t, "nonsense"); code != exitUsage || !strings.Contains(errs, "ahptui --help") {
		t.Errorf("usage error: %d %q", code, errs)
	}
	if code, out, _ := runCapture(t, "serve", "--help"); code != exitOK || out == "" {
		t.Errorf("serve --help: %d %q", code, out)
	}
}

func TestCannotConnectIsPlainErrorWithoutToken(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	code, out, errs := runCapture(t, "--token", "s3cr3t-token", "ws://"+addr+"/?tkn=s3cr3t-token")
	if code != exitConnect {
		t.Fatalf("exit code %d, want %d (stderr %q)", code, exitConnect, errs)
	}
	if !strings.Contains(errs, "cannot connect to ws://"+addr) || out != "" {
		t.Fatalf("stderr %q stdout %q", errs, out)
	}
	if strings.Contains(errs, "s3cr3t") || strings.ContainsRune(errs, '\x1b') {
		t.Fatalf("error text leaks the token or is not plain: %q", errs)
	}
}

// TestCannotConnectMasksURLCredentials: a password in the URL's userinfo
// never reaches the error text (issue 11 item 15).
func TestCannotConnectMasksURLCredentials(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, _, errs := runCapture(t, "ws://alice:PW-s3cr3t-9@"+addr+"/?tkn=TK-s3cr3t-9")
	if code != exitConnect || !strings.Contains(errs, "alice:***@") {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	logb, _ := os.ReadFile(filepath.Join(dir, "ahptui", "ahptui.log"))
	for _, s := range []string{errs, string(logb)} {
		if strings.Contains(s, "s3cr3t") {
			t.Fatalf("credential leaked: %q", s)
		}
	}
	if !strings.Contains(string(logb), "cannot connect") {
		t.Fatalf("log lacks the failure: %s", logb)
	}
}

func TestLoggerMasksTokens(t *testing.T) {
	var buf bytes.Buffer
	log := newMaskedLogger(&buf, "tok-123")
	log.Info("dial ws://h/?tkn=tok-123 failed", "url", "ws://h/?tkn=other&x=1", "err", errors.New("bearer tok-123 refused"),
		"hdr", "Bearer abc.def")
	log.With("token", "tok-123").Warn("x")
	s := buf.String()
	for _, leak := range []string{"tok-123", "other", "abc.def"} {
		if strings.Contains(s, leak) {
			t.Errorf("log leaks %q: %s", leak, s)
		}
	}
	if !strings.Contains(s, "tkn=***") {
		t.Errorf("mask missing: %s", s)
	}
}

func TestParseFaults(t *testing.T) {
	cases := []struct {
		in        string
		dropAfter int
		on        bool
		bad       bool
	}{
		{"", 0, false, false}, {"1", 0, true, false}, {"on", 0, true, false},
		{"drop-after=50", 50, true, false}, {"drop-after=0", 0, false, true}, {"weird", 0, false, true},
	}
	for _, c := range cases {
		n, on, err := parseFaults(c.in)
		if (err != nil) != c.bad || n != c.dropAfter || on != c.on {
			t.Errorf("parseFaults(%q) = %d, %v, %v", c.in, n, on, err)
		}
	}
}

func TestStateDirAndTheme(t *testing.T) {
	d, err := stateDir(func(k string) string { return map[string]string{"XDG_STATE_HOME": "/x"}[k] })
	if err != nil || d != "/x/ahptui" {
		t.Errorf("stateDir = %q, %v", d, err)
	}
	d, _ = stateDir(func(k string) string { return map[string]string{"HOME": "/home/u"}[k] })
	if d != "/home/u/.local/state/ahptui" {
		t.Errorf("stateDir = %q", d)
	}
	if !isDark("dark") || isDark("light") {
		t.Error("explicit theme ignored")
	}
	if hostLabel("ws://127.0.0.1:99/?x=1") != "127.0.0.1:99" {
		t.Errorf("hostLabel = %q", hostLabel("ws://127.0.0.1:99/?x=1"))
	}
}

// TestHelpNamesEveryCommand: --help lists every command and each command's
// own --help works.
func TestHelpNamesEveryCommand(t *testing.T) {
	_, out, _ := runCapture(t, "--help")
	for _, c := range []string{"demo", "serve", "ssh", "exec", "sessions", "export", "config path|check|edit", "@NAME", "ws+unix://"} {
		if !strings.Contains(out, c) {
			t.Errorf("--help lacks %q", c)
		}
	}
	for _, c := range []string{"serve", "ssh", "exec", "sessions", "export"} {
		if code, out, errs := runCapture(t, c, "--help"); code != exitOK || !strings.Contains(out, "usage: ahptui") {
			t.Errorf("%s --help: %d %q %q", c, code, out, errs)
		}
	}
}

// TestVersionStamps: the release build's stamps show in --version, and
// goreleaser's "none" placeholders do not.
func TestVersionStamps(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v1.2.3", "0123456789abcdef", "2026-11-23T00:00:00Z"
	if s := versionString(); !strings.Contains(s, "ahptui v1.2.3 (") || !strings.Contains(s, "commit 0123456789ab,") || !strings.Contains(s, "built 2026-11-23T00:00:00Z") {
		t.Fatalf("--version = %q", s)
	}
	commit, date = "none", "none"
	if s := versionString(); strings.Contains(s, "none") {
		t.Fatalf("--version = %q", s)
	}
}

// TestMouseIsNotCapturedByDefault: native selection works unless the config
// or --mouse asks for capture; --no-mouse wins over both.
func TestMouseIsNotCapturedByDefault(t *testing.T) {
	on, off := true, false
	cases := []struct {
		args []string
		file *bool
		want bool
	}{
		{nil, nil, false},
		{[]string{"--mouse"}, nil, true},
		{nil, &on, true},
		{nil, &off, false},
		{[]string{"--no-mouse"}, &on, false},
		{[]string{"--mouse"}, &off, true},
	}
	for _, c := range cases {
		cfg, err := parseArgs(append(c.args, "demo"), func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		f := &cfgfile.File{Mouse: c.file}
		if err := applyConfig(&cfg, f); err != nil {
			t.Fatal(err)
		}
		if got := !cfg.noMouse; got != c.want {
			t.Errorf("%v with mouse=%v: captured %v, want %v", c.args, c.file, got, c.want)
		}
	}
}

// TestGlobalFlagsAfterTheSubcommand: `ahptui sessions --config F` works as
// `ahptui --config F sessions`; serve keeps its own --token.
func TestGlobalFlagsAfterTheSubcommand(t *testing.T) {
	env := func(string) string { return "" }
	cfg, err := parseArgs([]string{"sessions", "@box", "--config", "/tmp/c.toml", "--json", "--theme=light"}, env)
	if err != nil || cfg.cmd != cmdSessions || cfg.configFile != "/tmp/c.toml" || cfg.theme != "light" ||
		strings.Join(cfg.subArgs, " ") != "@box --json" {
		t.Fatalf("sessions: %+v %v", cfg, err)
	}
	cfg, err = parseArgs([]string{"serve", "--token", "abc", "--log", "/tmp/l"}, env)
	if err != nil || cfg.logFile != "/tmp/l" || cfg.tokenFlag || strings.Join(cfg.subArgs, " ") != "--token abc" {
		t.Fatalf("serve: %+v %v", cfg, err)
	}
	cfg, err = parseArgs([]string{"exec", "ws://h:1", "--", "--config", "is text"}, env)
	if err != nil || cfg.configFile != "" || strings.Join(cfg.subArgs, " ") != "ws://h:1 -- --config is text" {
		t.Fatalf("exec after --: %+v %v", cfg, err)
	}
	if _, err := parseArgs([]string{"sessions", "--theme", "pink"}, env); err == nil {
		t.Fatal("a bad --theme after the subcommand passed")
	}
}
