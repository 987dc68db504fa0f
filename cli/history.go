package cli

import (
	"path/filepath"
	"strings"
)

// historyFile is the prompt history's file for one host under the state
// directory: history/<host>.jsonl, the host named by its configured name,
// "demo" for the embedded demo host (whose port changes every run),
// "agent-NAME" for `ahptui --agent NAME`'s embedded host (a Claude Code
// session's prompts are not the demo's), else its token-free host:port. The file itself never holds a token: the UI
// masks every entry with internal/redact before writing it.
func historyFile(stateDir string, cfg config, s *session, host string) string {
	if stateDir == "" {
		return ""
	}
	name := host
	switch {
	case s != nil && s.hostInProcess && len(cfg.agentArgs) > 0:
		var names []string
		for _, a := range cfg.agentArgs {
			n, _, _ := strings.Cut(a, "=")
			names = append(names, n)
		}
		name = "agent-" + strings.Join(names, "_")
	case s != nil && s.hostInProcess:
		name = "demo"
	case cfg.attachedName != "":
		name = "@" + cfg.attachedName
	}
	return filepath.Join(stateDir, "history", historyName(name)+".jsonl")
}

// historyName makes a host name safe as a file name.
func historyName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_', r == '@':
			return r
		}
		return '_'
	}, stripQuery(s))
	if s == "" {
		return "host"
	}
	return s
}
