package cli

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	cfgfile "github.com/ahptui/ahptui/internal/config"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/render"
)

// configTemplate is written by `ahptui config edit` when there is no file.
const configTemplate = `# ahptui configuration (see: ahptui --help, docs/USAGE.md "Configuration").
# Tokens are never stored here in clear: use token_env or token_cmd.

# default = "work"      # the host plain "ahptui" attaches to
# theme = "auto"        # auto, dark or light
# mouse = false         # true: capture the mouse (wheel scrolling; selection needs shift)

# [notify]
# bell = true
# desktop = "off"       # off, osc9, osc777 or osc99
# events = ["needs-input", "turn-end", "error"]

# [keys]
# "global.quit" = ["ctrl+q", "ctrl+c"]

# [hosts.work]
# url = "wss://agents.example.com/"
# token_env = "WORK_AHP_TOKEN"

# [hosts.box]
# ssh = "me@box.example.com"
# token_cmd = "pass show ahp/box"

# [agents.claude]       # ahptui --agent claude / ahptui serve --agent claude
# command = "claude-agent-acp"
# args = []
# env = { ANTHROPIC_BASE_URL = "https://api.anthropic.com" }
`

// runConfig implements `ahptui config path|check|edit`.
func runConfig(cfg config, std stdio) int {
	path := cfg.configFile
	if path == "" {
		p, err := cfgfile.Path(lookupEnv)
		if err != nil {
			printClean(std.err, "ahptui: %v\n", err)
			return exitError
		}
		path = p
	}
	switch cfg.configVerb {
	case "path":
		printClean(std.out, "%s\n", path)
		return exitOK
	case "edit":
		if err := editConfig(path, std); err != nil {
			printClean(std.err, "ahptui: config edit: %v\n", err)
			return exitError
		}
	}
	f, err := cfgfile.Load(path, true)
	if err != nil {
		printClean(std.err, "ahptui: %v\n", err)
		return exitUsage
	}
	if err := applyConfig(&cfg, f); err != nil {
		printClean(std.err, "ahptui: %v\n", err)
		return exitUsage
	}
	for _, w := range configWarnings(f) {
		printClean(std.err, "ahptui: warning: %s\n", w)
	}
	def := "none"
	if f.Default != "" {
		def = f.Default
	}
	printClean(std.out, "%s: ok (%d hosts: %s; default: %s)\n", path, len(f.Hosts), strings.Join(f.HostNames(), ", "), def)
	return exitOK
}

// printClean prints like printErr, through render.Sanitize as well: a
// config file's key names, host names and paths may hold terminal escapes.
func printClean(w io.Writer, format string, args ...any) {
	_, _ = io.WriteString(w, render.Sanitize(redact.String(fmt.Sprintf(format, args...))))
}

// configWarnings lists risks that are not errors: a clear-text token in a
// file others can read.
func configWarnings(f *cfgfile.File) []string {
	var out []string
	st, err := os.Stat(f.Path)
	if err != nil || runtime.GOOS == "windows" {
		return nil
	}
	for _, n := range f.HostNames() {
		if urlHoldsToken(f.Hosts[n].URL) {
			out = append(out, fmt.Sprintf("hosts.%s.url holds a token in clear (tkn= or a password): tokens are never stored in clear — "+
				"move it to token_env or token_cmd", n))
		}
		if f.Hosts[n].Token != "" && st.Mode().Perm()&0o077 != 0 {
			out = append(out, fmt.Sprintf("%s holds a clear-text token for %s but is readable by others (chmod 600 %s)", f.Path, n, f.Path))
		}
	}
	return out
}

// urlHoldsToken reports whether a configured URL carries a secret: a
// token query parameter or a password.
func urlHoldsToken(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return false
	}
	if _, ok := u.User.Password(); ok {
		return true
	}
	for k := range u.Query() {
		switch strings.ToLower(k) {
		case "tkn", "token", "access_token":
			return true
		}
	}
	return false
}

// editConfig opens the file in $VISUAL/$EDITOR, creating it from the
// template (mode 0600) when it does not exist.
func editConfig(path string, std stdio) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("create config dir: %w", err)
		}
		if err := os.WriteFile(path, []byte(configTemplate), 0o600); err != nil {
			return fmt.Errorf("create config: %w", err)
		}
	}
	argv := strings.Fields(editorCommand())
	if len(argv) == 0 {
		return errors.New("no editor: set $VISUAL or $EDITOR")
	}
	cmd := exec.Command(argv[0], append(argv[1:], path)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.in, std.out, std.err
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	return nil
}
