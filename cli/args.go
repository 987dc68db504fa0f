package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	cfgfile "github.com/ahptui/ahptui/internal/config"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui"
)

// command is the sub-command chosen on the command line.
type command int

const (
	cmdAttach command = iota
	cmdDemo
	cmdServe
	cmdHelp
	cmdVersion
	cmdConfig
	cmdExec
	cmdSessions
	cmdExport
	cmdSSH
	cmdAgents
)

// subcommands take every argument after their name (they parse their own
// flags); the global flags before the name still apply.
var subcommands = map[string]command{
	"serve": cmdServe, "exec": cmdExec, "sessions": cmdSessions, "export": cmdExport, "ssh": cmdSSH,
	"agents": cmdAgents,
}

// config is the parsed command line.
type config struct {
	cmd          command
	url          string             // cmdAttach: the host URL as given (may carry ?tkn=)
	hostName     string             // cmdAttach: @name of a configured host
	token        string             // --token or AHPTUI_TOKEN
	tokenFlag    bool               // --token was given (it overrides the config)
	logFile      string             // --log; empty = state dir
	theme        string             // auto, dark or light; "" = from the config file, else auto
	noMouse      bool               // --no-mouse: leave mouse selection to the terminal
	printURL     bool               // demo --print-url: print the demo host's URL and serve it headless
	mouse        bool               // --mouse: capture the mouse (wheel scrolling); default: the config's mouse, else off
	configFile   string             // --config; empty = the default path
	configVerb   string             // cmdConfig: path, check or edit
	subArgs      []string           // subcommands: the arguments after the name
	keys         *keymap.KeyMap     // key bindings with the config file's overrides (nil = defaults)
	notify       *tui.NotifyOptions // notifications from the config file (nil = off)
	hostFile     *cfgfile.File      // the config file, when it names hosts: the picker lists them all
	attachedName string             // the attached host's name in hostFile ("" for a URL)
	agentArgs    []string           // --agent NAME[=COMMAND] (repeatable): the embedded host with these agents
}

// usageError marks command-line mistakes (exit code 2).
type usageError struct{ msg string }

// Error returns the message.
func (e *usageError) Error() string { return e.msg }

// usagef builds a *usageError; any token in the text is masked.
func usagef(format string, args ...any) error {
	return &usageError{msg: redact.String(fmt.Sprintf(format, args...))}
}

// parseArgs parses args (without the program name). getenv is injected for tests.
func parseArgs(args []string, getenv func(string) string) (config, error) {
	cfg := config{token: getenv("AHPTUI_TOKEN")}
	fs := flag.NewFlagSet("ahptui", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var help, ver bool
	fs.StringVar(&cfg.token, "token", cfg.token, "")
	fs.StringVar(&cfg.logFile, "log", "", "")
	fs.StringVar(&cfg.theme, "theme", "", "")
	fs.StringVar(&cfg.configFile, "config", "", "")
	fs.BoolVar(&cfg.noMouse, "no-mouse", false, "")
	fs.BoolVar(&cfg.mouse, "mouse", false, "")
	fs.BoolVar(&cfg.printURL, "print-url", false, "")
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&ver, "version", false, "")
	fs.Func("agent", "", func(s string) error { cfg.agentArgs = append(cfg.agentArgs, s); return nil })

	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return config{cmd: cmdHelp}, nil
			}
			return cfg, usagef("%v", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		// A subcommand hands everything after it to its own flag parser.
		if c, ok := subcommands[rest[0]]; ok && len(positional) == 0 && !help && !ver {
			cfg.cmd = c
			globals, sub := hoistGlobalFlags(c, rest[1:]) // global flags work after the name too
			if err := fs.Parse(globals); err != nil {
				return cfg, usagef("%v", err)
			}
			cfg.subArgs = append([]string(nil), sub...)
			fs.Visit(func(f *flag.Flag) { cfg.tokenFlag = cfg.tokenFlag || f.Name == "token" })
			return cfg, checkTheme(cfg)
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	fs.Visit(func(f *flag.Flag) { cfg.tokenFlag = cfg.tokenFlag || f.Name == "token" })
	switch {
	case help:
		return config{cmd: cmdHelp}, nil
	case ver:
		return config{cmd: cmdVersion}, nil
	}
	if err := checkTheme(cfg); err != nil {
		return cfg, err
	}
	if len(positional) == 0 && len(cfg.agentArgs) > 0 {
		cfg.cmd = cmdDemo // the embedded host, with the --agent agents instead of the demo
		return cfg, nil
	}
	if len(positional) == 0 {
		cfg.cmd = cmdAttach // the config file's default host
		return cfg, nil
	}
	if positional[0] == "config" {
		if len(positional) != 2 || (positional[1] != "path" && positional[1] != "check" && positional[1] != "edit") {
			return cfg, usagef("usage: ahptui config path|check|edit")
		}
		cfg.cmd, cfg.configVerb = cmdConfig, positional[1]
		return cfg, nil
	}
	switch {
	case len(positional) > 1:
		return cfg, usagef("unexpected arguments after %q: %s", positional[0], strings.Join(positional[1:], " "))
	case positional[0] == "demo":
		cfg.cmd = cmdDemo
	case positional[0] == "help":
		cfg.cmd = cmdHelp
	case positional[0] == "version":
		cfg.cmd = cmdVersion
	case strings.HasPrefix(positional[0], "@"):
		if len(positional[0]) == 1 {
			return cfg, usagef("@ needs a host name from the config file (ahptui @name)")
		}
		cfg.cmd, cfg.hostName = cmdAttach, positional[0][1:]
	default:
		if err := checkURL(positional[0]); err != nil {
			return cfg, err
		}
		cfg.cmd = cmdAttach
		cfg.url = positional[0]
	}
	return cfg, nil
}

// checkTheme validates --theme.
func checkTheme(cfg config) error {
	switch cfg.theme {
	case "", "auto", "dark", "light":
		return nil
	}
	return usagef("--theme must be auto, dark or light, not %q", cfg.theme)
}

// checkURL accepts ws://, wss:// and ws+unix:// URLs with a host (or a
// socket path). The error never repeats the URL's query (it may hold a token).
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return usagef("%q is neither a command nor a valid URL", stripQuery(raw))
	}
	switch u.Scheme {
	case "ws", "wss":
		if u.Host == "" {
			return usagef("URL %q has no host", stripQuery(raw))
		}
	case "ws+unix":
		if u.Path == "" {
			return usagef("URL %q has no socket path (ws+unix:///path/to/socket)", stripQuery(raw))
		}
	default:
		return usagef("%q is not a command, and URLs must start with ws://, wss:// or ws+unix://", stripQuery(raw))
	}
	return nil
}

// stripQuery drops everything from the first '?' so a token never reaches output.
func stripQuery(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		return s[:i] + "?…"
	}
	return s
}

// stdio bundles the process streams so tests can capture them.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// lookupEnv is os.Getenv, a variable for readability at call sites.
var lookupEnv = os.Getenv
