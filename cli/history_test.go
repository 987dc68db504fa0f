package cli

import (
	"path/filepath"
	"testing"
)

// The prompt history of `ahptui --agent claude` is its own, not the demo's.
func TestHistoryFileOfEmbeddedAgent(t *testing.T) {
	in := &session{hostInProcess: true}
	for _, c := range []struct {
		cfg  config
		s    *session
		want string
	}{
		{config{}, in, "demo.jsonl"},
		{config{agentArgs: []string{"claude"}}, in, "agent-claude.jsonl"},
		{config{agentArgs: []string{"gemini=gemini --acp", "codex"}}, in, "agent-gemini_codex.jsonl"},
		{config{attachedName: "box"}, &session{}, "@box.jsonl"},
	} {
		if got := filepath.Base(historyFile("/state", c.cfg, c.s, "127.0.0.1:1")); got != c.want {
			t.Errorf("%+v: %s, want %s", c.cfg.agentArgs, got, c.want)
		}
	}
}
