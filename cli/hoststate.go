package cli

import (
	"path/filepath"
	"strings"
)

// Where hosts keep their sessions (issue 28). `ahptui serve` keeps its
// state database in the state directory itself (or --state-dir); the
// hosts `ahptui demo` and `ahptui --agent NAME` embed keep theirs per
// user, in a subdirectory named after their agents, so that /resume after
// quitting finds the chats of earlier runs.

// embeddedStateDir is the state database directory of the embedded host
// for these --agent values (none: the demo).
func embeddedStateDir(state string, agentArgs []string) string {
	if len(agentArgs) == 0 {
		return filepath.Join(state, "demo")
	}
	names := make([]string, 0, len(agentArgs))
	for _, a := range agentArgs {
		name, _, _ := strings.Cut(a, "=")
		names = append(names, safeDirName(name))
	}
	return filepath.Join(state, "agents", strings.Join(names, "+"))
}

// safeDirName keeps letters, digits, '-', '_' and '.' of s (others
// become '_'); "" becomes "_".
func safeDirName(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || (c == '.' && i > 0)
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 || len(b) > 64 {
		return "_" + string(b[:min(len(b), 63)])
	}
	return string(b)
}
