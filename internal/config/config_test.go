package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const good = `# ahptui config
default = "work"
theme = "dark"

[notify]
bell = false
desktop = "osc777"
events = ["needs-input", "turn-end"]

[keys]
"global.quit" = ["ctrl+q", "ctrl+c"]
"composer.send" = "enter"

[hosts.work]
url = "wss://agents.example.com/"
token_env = "WORK_AHP_TOKEN"

[hosts."box-1"]
ssh = "me@box.example.com:2222"
start = true
token_cmd = "echo from-cmd"

[hosts.local]
url = "ws+unix:///run/ahp.sock"

[hosts.pi]
url = "ws://127.0.0.1:63877/"
token_param = "token"
`

func TestParseGood(t *testing.T) {
	f, err := Parse("c.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if f.Default != "work" || f.Theme != "dark" || f.Notify.BellOn() || f.Notify.Desktop != "osc777" {
		t.Fatalf("%+v", f)
	}
	if got := f.HostNames(); strings.Join(got, ",") != "box-1,local,pi,work" {
		t.Fatalf("hosts %v", got)
	}
	h, err := f.Lookup("box-1")
	if err != nil || h.Start == nil || !*h.Start || h.SSH != "me@box.example.com:2222" {
		t.Fatalf("%+v %v", h, err)
	}
	if pi, err := f.Lookup("pi"); err != nil || pi.TokenParam != "token" {
		t.Fatalf("token_param: %+v %v", pi, err)
	}
	if _, err := f.Lookup("nope"); err == nil || !strings.Contains(err.Error(), "box-1") {
		t.Fatalf("lookup error %v", err)
	}
	keys, err := KeyList(f.Keys["global.quit"])
	if err != nil || strings.Join(keys, " ") != "ctrl+q ctrl+c" {
		t.Fatalf("keys %v %v", keys, err)
	}
}

// TestParseErrors: each mistake is reported with the file, the line and
// the key.
func TestParseErrors(t *testing.T) {
	cases := map[string]struct {
		doc  string
		want string
	}{
		"unknown key":        {"theme = \"dark\"\n[hosts.a]\nurl = \"ws://h/\"\nurll = \"x\"\n", "c.toml:4: key hosts.a.urll: unknown key"},
		"syntax":             {"theme = \"dark\"\n\n[hosts.a\n", "c.toml:3: syntax error"},
		"wrong type":         {"[hosts.a]\nssh = \"h\"\nport = \"22\"\n", "c.toml:3: key hosts.a.port"},
		"bad theme":          {"\n\ntheme = \"pink\"\n", "c.toml:3: key theme: \"pink\" is not a theme"},
		"default missing":    {"default = \"x\"\n", "c.toml:1: key default: no host named \"x\""},
		"plaintext token":    {"[hosts.a]\nurl = \"ws://h/\"\ntoken = \"s3cr3t\"\n", "c.toml:3: key hosts.a.token: tokens are not stored in clear"},
		"bad url":            {"[hosts.a]\nurl = \"http://h/\"\n", "c.toml:2: key hosts.a.url: URLs must start with ws://"},
		"url and ssh":        {"[hosts.a]\nurl = \"ws://h/\"\nssh = \"h\"\n", "c.toml:3: key hosts.a.ssh: set url or ssh, not both"},
		"neither":            {"[hosts.a]\nstart = true\n", "c.toml:1: key hosts.a: a host needs url or ssh"},
		"bad ssh":            {"[hosts.a]\nssh = \"-oProxyCommand=x\"\n", "c.toml:2: key hosts.a.ssh"},
		"bad ssh port":       {"[hosts.a]\nssh = \"h:99999\"\n", "key hosts.a.ssh: \"h:99999\" has a bad port"},
		"bad desktop":        {"[notify]\ndesktop = \"growl\"\n", "c.toml:2: key notify.desktop"},
		"bad event":          {"[notify]\nevents = [\"x\"]\n", "c.toml:2: key notify.events"},
		"bad key override":   {"[keys]\nquit = 3\n", "c.toml:2: key keys.\"quit\""},
		"two token sources":  {"[hosts.a]\nurl = \"ws://h/\"\ntoken_env = \"A\"\ntoken_cmd = \"b\"\n", "c.toml:1: key hosts.a: set one of"},
		"bad env name":       {"[hosts.a]\nurl = \"ws://h/\"\ntoken_env = \"$A\"\n", "c.toml:3: key hosts.a.token_env"},
		"bad token_param":    {"[hosts.a]\nurl = \"ws://h/\"\ntoken_param = \"a b\"\n", "c.toml:3: key hosts.a.token_param"},
		"two watch sources":  {"[serve]\nwatch_token_env = \"A\"\nwatch_token_cmd = \"b\"\n", "c.toml:1: key serve: set one of"},
		"watch in clear":     {"[serve]\nwatch_token = \"s3cr3t\"\n", "c.toml:2: key serve.watch_token: tokens are not stored in clear"},
		"dotted unknown key": {"hosts.a.url = \"ws://h/\"\nhosts.a.bogus = 1\n", "c.toml:2: key hosts.a.bogus: unknown key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("c.toml", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("not Errors: %T", err)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Fatalf("error repeats the token: %v", err)
			}
		})
	}
}

func TestLoadAndPath(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": dir}
	p, err := Path(func(k string) string { return env[k] })
	if err != nil || p != filepath.Join(dir, "ahptui", "config.toml") {
		t.Fatalf("path %q %v", p, err)
	}
	p2, _ := Path(func(k string) string { return map[string]string{"HOME": "/h"}[k] })
	if p2 != "/h/.config/ahptui/config.toml" {
		t.Fatalf("home path %q", p2)
	}
	p3, _ := Path(func(k string) string { return map[string]string{"AHPTUI_CONFIG": "/x.toml", "HOME": "/h"}[k] })
	if p3 != "/x.toml" {
		t.Fatalf("explicit path %q", p3)
	}
	f, err := Load(p, false)
	if err != nil || len(f.Hosts) != 0 {
		t.Fatalf("missing optional file: %v", err)
	}
	if _, err := Load(p, true); err == nil {
		t.Fatal("missing required file accepted")
	}
	must(t, os.MkdirAll(filepath.Dir(p), 0o700))
	must(t, os.WriteFile(p, []byte(good), 0o600))
	f, err = Load(p, true)
	if err != nil || f.Path != p {
		t.Fatalf("load: %v", err)
	}
}

func TestResolveToken(t *testing.T) {
	ctx := context.Background()
	env := func(k string) string { return map[string]string{"T": " tok-env \n"}[k] }
	if tok, err := (Host{TokenEnv: "T"}).ResolveToken(ctx, env); err != nil || tok != "tok-env" {
		t.Fatalf("env: %q %v", tok, err)
	}
	if _, err := (Host{TokenEnv: "MISSING"}).ResolveToken(ctx, env); err == nil || !strings.Contains(err.Error(), "$MISSING is not set") {
		t.Fatalf("missing env: %v", err)
	}
	if tok, err := (Host{TokenCmd: "printf 'tok-cmd\\n'"}).ResolveToken(ctx, env); err != nil || tok != "tok-cmd" {
		t.Fatalf("cmd: %q %v", tok, err)
	}
	if _, err := (Host{TokenCmd: "echo leaked-out; exit 3"}).ResolveToken(ctx, env); err == nil || strings.Contains(err.Error(), "leaked-out") {
		t.Fatalf("failing cmd: %v", err)
	}
	if _, err := (Host{TokenCmd: "printf 'a\\nb\\n'"}).ResolveToken(ctx, env); err == nil {
		t.Fatal("two-line token accepted")
	}
	if tok, _ := (Host{}).ResolveToken(ctx, env); tok != "" {
		t.Fatalf("no source: %q", tok)
	}
}

func TestSplitSSH(t *testing.T) {
	for in, want := range map[string][3]string{
		"h":             {"", "h", ""},
		"me@h":          {"me", "h", ""},
		"me@h:2222":     {"me", "h", "2222"},
		"[::1]:22":      {"", "::1", "22"},
		"a.b@host.name": {"a.b", "host.name", ""},
	} {
		u, h, p, err := SplitSSH(in)
		if err != nil || [3]string{u, h, p} != want {
			t.Errorf("SplitSSH(%q) = %q %q %q %v", in, u, h, p, err)
		}
	}
	for _, bad := range []string{"", "-oX", "@h", "h:x", "a b", "h;rm", "me@"} {
		if _, _, _, err := SplitSSH(bad); err == nil {
			t.Errorf("SplitSSH(%q) accepted", bad)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHostsInFileOrder: hosts come in the order the file defines them.
func TestHostsInFileOrder(t *testing.T) {
	doc := "[hosts.zeta]\nurl = \"ws://127.0.0.1:1/\"\n[hosts.alpha]\nurl = \"ws://127.0.0.1:2/\"\n[hosts]\nmid = { url = \"ws://127.0.0.1:3/\" }\n"
	f, err := Parse("c.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.HostsInFileOrder(), ","); got != "zeta,alpha,mid" {
		t.Fatalf("order %s", got)
	}
}
