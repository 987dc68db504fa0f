package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsCommand: `ahptui agents` lists configured and catalog agents,
// says which commands are found and how to install the others, and masks
// secrets in the command lines it prints.
func TestAgentsCommand(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gemini", "my-agent", "claude-agent-acp"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The Node on PATH is too old for the Claude adapter (≥ 22), new
	// enough for Gemini CLI (≥ 20).
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\necho v20.20.2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "config.toml")
	doc := "[agents.mine]\ntitle = \"Mine\"\ncommand = \"my-agent\"\nargs = [\"--acp\"]\n\n" +
		"[agents.broken]\ncommand = \"/nowhere/agent\"\nargs = [\"--token\", \"sekrit-agent-token\"]\n\n" +
		"[agents.copilot]\ncommand = \"/nowhere/copilot\"\n"
	if err := os.WriteFile(cfgPath, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("AHPTUI_CONFIG", cfgPath)
	code, out, errs := runCapture(t, "agents")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "sekrit-agent-token") {
		t.Fatalf("secret printed: %s", out)
	}
	for _, want := range []string{
		"mine      Mine (config)",
		"my-agent --acp",
		"found: " + filepath.Join(bin, "my-agent"),
		"gemini --acp",
		"found: " + filepath.Join(bin, "gemini"),
		"claude    Claude Code",
		"found: " + filepath.Join(bin, "claude-agent-acp"),
		"needs Node ≥ 22: found Node v20.20.2 (" + filepath.Join(bin, "node") + "); put Node 22 or newer first in PATH",
		"install: npm install -g @agentclientprotocol/codex-acp",
		"tested with ahptui: @agentclientprotocol/codex-acp@2.6.0",
		"installs and runs the native codex binary",
		"fix [agents.broken] in " + cfgPath,
		"GitHub Copilot CLI (config)",
		"install: npm install -g @github/copilot",
		"install: npm install -g opencode-ai",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "needs Node ≥ 20") {
		t.Errorf("Gemini CLI's Node (v20) reported too old:\n%s", out)
	}
	// The configured copilot replaces the catalog's.
	if strings.Count(out, "copilot --acp") != 0 || strings.Count(out, "\ncopilot ") != 1 {
		t.Errorf("copilot listed twice or from the catalog:\n%s", out)
	}
	if code, out, _ := runCapture(t, "agents", "--help"); code != exitOK || !strings.Contains(out, "usage: ahptui agents") {
		t.Errorf("agents --help: %d %q", code, out)
	}
	if code, _, _ := runCapture(t, "agents", "extra"); code != exitUsage {
		t.Errorf("agents extra: %d", code)
	}
	if _, out, _ := runCapture(t, "--help"); !strings.Contains(out, "ahptui agents") {
		t.Errorf("--help lacks agents")
	}
}
