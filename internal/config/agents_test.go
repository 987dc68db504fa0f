package config

import (
	"strings"
	"testing"
)

// TestParseAgents: [agents.NAME] tables decode with command, args and env.
func TestParseAgents(t *testing.T) {
	doc := `[agents.claude]
title = "Claude Code"
command = "/opt/bin/claude-agent-acp"
args = ["--verbose"]
env = { ANTHROPIC_BASE_URL = "http://127.0.0.1:9", IS_SANDBOX = "1" }

[agents."my-gemini"]
command = "gemini"
args = ["--experimental-acp"]
`
	f, err := Parse("c.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.AgentNames(), ","); got != "claude,my-gemini" {
		t.Fatalf("names %s", got)
	}
	a := f.Agents["claude"]
	if a.Title != "Claude Code" || a.Command != "/opt/bin/claude-agent-acp" || len(a.Args) != 1 || a.Env["IS_SANDBOX"] != "1" {
		t.Fatalf("%+v", a)
	}
}

// TestParseAgentErrors: each mistake in an agent table names file, line and key.
func TestParseAgentErrors(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"no command":    {"[agents.a]\nargs = [\"x\"]\n", "c.toml:1: key agents.a: an agent needs command"},
		"blank command": {"\n[agents.a]\ncommand = \"  \"\n", "c.toml:2: key agents.a: an agent needs command"},
		"bad env name":  {"[agents.a]\ncommand = \"x\"\nenv = { \"A-B\" = \"1\" }\n", "c.toml:3: key agents.a.env: \"A-B\" is not an environment variable name"},
		"bad name":      {"[agents.\"a b\"]\ncommand = \"x\"\n", "c.toml:1: key agents.\"a b\": agent names use"},
		"unknown key":   {"[agents.a]\ncommand = \"x\"\ncmd = \"y\"\n", "c.toml:3: key agents.a.cmd: unknown key"},
		"args type":     {"[agents.a]\ncommand = \"x\"\nargs = \"--acp\"\n", "c.toml:3: key agents.a.args"},
		"nul in args":   {"[agents.a]\ncommand = \"x\"\nargs = [\"a\\u0000b\"]\n", "c.toml:3: key agents.a.args: an argument holds a NUL byte"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("c.toml", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
