package agents

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/internal/config"
)

func TestSplit(t *testing.T) {
	cases := map[string][]string{
		"":                               nil,
		"  npx -y  @zed/claude  ":        {"npx", "-y", "@zed/claude"},
		`gemini --acp`:                   {"gemini", "--acp"},
		`a 'b c' "d e"`:                  {"a", "b c", "d e"},
		`'it'\''s'`:                      {"it's"},
		`"a\"b" "\$HOME" "\x"`:           {`a"b`, "$HOME", `\x`},
		`a\ b c\\d`:                      {"a b", `c\d`},
		"a \\\nb":                        {"a", "b"},
		`x''y "" ''`:                     {"xy", "", ""},
		`$HOME ~ *.go ; rm | cat > f`:    {"$HOME", "~", "*.go", ";", "rm", "|", "cat", ">", "f"},
		"node\t/opt/a.js --flag=\"v w\"": {"node", "/opt/a.js", "--flag=v w"},
		`"multi` + "\n" + `line"`:        {"multi\nline"},
	}
	for in, want := range cases {
		got, err := Split(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`a 'b`, `"c`, `x\`, `"a\"`} {
		if _, err := Split(bad); !errors.Is(err, ErrUnterminated) {
			t.Errorf("Split(%q) err = %v, want unterminated", bad, err)
		}
	}
	if _, err := Split("a\x00b"); err == nil {
		t.Error("NUL accepted")
	}
}

func TestJoinRoundTrip(t *testing.T) {
	words := []string{"npx", "-y", "a b", "it's", "", `"q"`, "$X", `back\slash`}
	got, err := Split(Join(words))
	if err != nil || !reflect.DeepEqual(got, words) {
		t.Fatalf("%q -> %q %v", Join(words), got, err)
	}
}

// FuzzSplit: Split never panics, and what it returns survives Join.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a b", `'x' "y\"z" \ w`, `"unterminated`, "a\\\nb", `''""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			return
		}
		again, err := Split(Join(words))
		if err != nil || len(again) != len(words) {
			t.Fatalf("Join(%q) = %q re-split to %q %v", words, Join(words), again, err)
		}
		for i := range words {
			if again[i] != words[i] {
				t.Fatalf("word %d: %q != %q", i, again[i], words[i])
			}
		}
	})
}

func lookIn(found ...string) func(string) (string, error) {
	return func(p string) (string, error) {
		for _, f := range found {
			if f == p {
				return "/usr/bin/" + p, nil
			}
		}
		return "", errors.New("not found")
	}
}

func TestResolve(t *testing.T) {
	cfg := map[string]config.Agent{
		"claude": {Command: "/opt/claude-acp", Args: []string{"--x"}, Env: map[string]string{"K": "v"}},
		"mine":   {Title: "Mine", Command: "my-agent"},
	}
	cases := []struct {
		arg   string
		cfg   map[string]config.Agent
		found []string
		want  Spec
	}{
		{"claude", cfg, nil, Spec{Name: "claude", Title: "Claude Code", Command: "/opt/claude-acp", Args: []string{"--x"}, Env: map[string]string{"K": "v"}}},
		{"claude", nil, nil, Spec{Name: "claude", Title: "Claude Code", Command: "npx", Args: []string{"-y", "@agentclientprotocol/claude-agent-acp"}}},
		{"claude", nil, []string{"claude-agent-acp"}, Spec{Name: "claude", Title: "Claude Code", Command: "claude-agent-acp"}},
		{"gemini", nil, nil, Spec{Name: "gemini", Title: "Gemini CLI", Command: "gemini", Args: []string{"--acp"}}},
		{"mine", cfg, nil, Spec{Name: "mine", Title: "Mine", Command: "my-agent"}},
		{"claude=node '/p q/index.js' --v", cfg, nil, Spec{Name: "claude", Title: "Claude Code", Command: "node", Args: []string{"/p q/index.js", "--v"}}},
		{"x=a=b c", nil, nil, Spec{Name: "x", Title: "x", Command: "a=b", Args: []string{"c"}}},
	}
	for _, tc := range cases {
		got, err := resolve(tc.arg, tc.cfg, lookIn(tc.found...))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("resolve(%q, found %v) = %+v, %v; want %+v", tc.arg, tc.found, got, err, tc.want)
		}
	}
	for arg, want := range map[string]string{
		"nobody": `unknown agent "nobody"`,
		"x=":     "the command after '=' is empty",
		"x=  ":   "the command after '=' is empty",
		"x='a":   "never closed",
		"=cmd":   "a name uses letters",
		"a b=c":  "a name uses letters",
		"":       "a name uses letters",
	} {
		if _, err := Resolve(arg, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) err = %v, want %q", arg, err, want)
		}
	}
}

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "agent")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if p, err := Lookup(Spec{Command: "agent"}); err != nil || p != exe {
		t.Fatalf("PATH lookup %q %v", p, err)
	}
	if p, err := Lookup(Spec{Command: exe}); err != nil || p != exe {
		t.Fatalf("path lookup %q %v", p, err)
	}
	for _, bad := range []string{"missing-agent", plain, dir, filepath.Join(dir, "nope"), ""} {
		if _, err := Lookup(Spec{Command: bad}); err == nil {
			t.Errorf("Lookup(%q) found", bad)
		}
	}
}

func TestSpecEnviron(t *testing.T) {
	s := Spec{Env: map[string]string{"B": "new", "C": "c"}}
	got := s.Environ([]string{"A=a", "B=old"})
	if strings.Join(got, " ") != "A=a B=new C=c" {
		t.Fatalf("%q", got)
	}
	if cl := (Spec{Command: "npx", Args: []string{"-y", "a b"}}).CommandLine(); cl != "npx -y 'a b'" {
		t.Fatalf("%q", cl)
	}
}

func TestCatalog(t *testing.T) {
	want := "claude codex gemini copilot opencode goose"
	var names []string
	for _, e := range Catalog() {
		names = append(names, e.Name)
		if e.Title == "" || e.Install == "" || len(e.Commands) == 0 {
			t.Errorf("incomplete entry %+v", e)
		}
	}
	if strings.Join(names, " ") != want {
		t.Fatalf("catalog %v", names)
	}
}
