package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/ahptui/ahptui/internal/redact"
)

// command is the sub-command chosen on the command line.
type command int

const (
	cmdAttach command = iota
	cmdDemo
	cmdServe
	cmdHelp
	cmdVersion
)

// config is the parsed command line.
type config struct {
	cmd       command
	url       string   // cmdAttach: the host URL as given (may carry ?tkn=)
	token     string   // --token or AHPTUI_TOKEN
	logFile   string   // --log; empty = state dir
	theme     string   // auto, dark or light
	noMouse   bool     // --no-mouse: leave mouse selection to the terminal
	serveArgs []string // cmdServe: the arguments after "serve"
}

// usageError marks command-line mistakes (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef builds a *usageError; any token in the text is masked.
func usagef(format string, args ...any) error {
	return &usageError{msg: redact.String(fmt.Sprintf(format, args...))}
}

const usageText = `ahptui — a terminal client for the Agent Host Protocol (AHP)

Usage:
  ahptui demo [flags]          start the embedded demo host on 127.0.0.1 and attach
  ahptui [flags] URL           attach to an AHP host (ws:// or wss://; ?tkn=TOKEN accepted)
  ahptui serve [serve flags]   run the embedded host without a UI (see: ahptui serve --help)
  ahptui --help | --version

Flags:
  --token TOKEN    connection token (default $AHPTUI_TOKEN; overrides ?tkn= in the URL)
  --log FILE       write the log to FILE (default: $XDG_STATE_HOME/ahptui/ahptui.log)
  --theme NAME     auto, dark or light (default auto)
  --no-mouse       do not capture the mouse (lets the terminal select text)
  -h, --help       show this help
  --version        print the version

In the UI press F1 (or ctrl+g) for every key binding.

Environment:
  AHPTUI_TOKEN        connection token
  AHPTUI_DEMO_FAULTS  demo only: fault injection. "1" enables F12, which drops every
                      connection and refuses reconnects for 2 s; "drop-after=N" also
                      drops each connection after N frames
  AHPTUI_DEMO_PACE    demo only: delay between streamed chunks (default 12ms)

Exit codes:
  0 ok, 1 runtime or internal error (a crash restores the terminal first),
  2 usage error, 3 cannot connect to the host (or the connection failed for
  good), 128+N ended by signal N (129 SIGHUP, 130 SIGINT, 143 SIGTERM; the
  terminal is restored)
`

// parseArgs parses args (without the program name). getenv is injected for tests.
func parseArgs(args []string, getenv func(string) string) (config, error) {
	cfg := config{theme: "auto", token: getenv("AHPTUI_TOKEN")}
	fs := flag.NewFlagSet("ahptui", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var help, ver bool
	fs.StringVar(&cfg.token, "token", cfg.token, "")
	fs.StringVar(&cfg.logFile, "log", "", "")
	fs.StringVar(&cfg.theme, "theme", "auto", "")
	fs.BoolVar(&cfg.noMouse, "no-mouse", false, "")
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&ver, "version", false, "")

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
		// "serve" hands everything after it to the host's own flag parser.
		if len(positional) == 0 && rest[0] == "serve" {
			cfg.cmd = cmdServe
			cfg.serveArgs = append([]string(nil), rest[1:]...)
			return cfg, nil
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	switch {
	case help:
		return config{cmd: cmdHelp}, nil
	case ver:
		return config{cmd: cmdVersion}, nil
	}
	switch cfg.theme {
	case "auto", "dark", "light":
	default:
		return cfg, usagef("--theme must be auto, dark or light, not %q", cfg.theme)
	}
	switch {
	case len(positional) == 0:
		return cfg, usagef("missing command or URL (try: ahptui demo)")
	case len(positional) > 1:
		return cfg, usagef("unexpected arguments after %q: %s", positional[0], strings.Join(positional[1:], " "))
	case positional[0] == "demo":
		cfg.cmd = cmdDemo
	case positional[0] == "help":
		cfg.cmd = cmdHelp
	case positional[0] == "version":
		cfg.cmd = cmdVersion
	default:
		if err := checkURL(positional[0]); err != nil {
			return cfg, err
		}
		cfg.cmd = cmdAttach
		cfg.url = positional[0]
	}
	return cfg, nil
}

// checkURL accepts ws:// and wss:// URLs with a host. The error never
// repeats the URL's query (it may hold a token).
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return usagef("%q is neither a command nor a valid URL", stripQuery(raw))
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return usagef("%q is not a command, and URLs must start with ws:// or wss://", stripQuery(raw))
	}
	if u.Host == "" {
		return usagef("URL %q has no host", stripQuery(raw))
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
