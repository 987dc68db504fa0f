package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/internal/redact"
)

// defaultServeAddr is the `ahptui serve` listen address.
const defaultServeAddr = "127.0.0.1:0"

// defaultServePace is the demo agent's streaming pace under `ahptui serve`
// (a human-readable speed; tests use --pace 0).
const defaultServePace = 20 * time.Millisecond

// serveUsage is the usage line of `ahptui serve`.
const serveUsage = "usage: ahptui serve [--addr 127.0.0.1:0] [--token T [--watch-token W] | --without-connection-token [--allow-host NAME]] [--dir PATH] [--max-frame BYTES] [--relay-frame-cap BYTES] [--pace DURATION] [--frame-delay DURATION] [--drop-after N] [--silent-after DURATION --silent-for DURATION] [--state-dir DIR | --ephemeral] [--new-token] [--state-budget SIZE] [--log-level LEVEL] [--exit-with-stdin] [--detach]"

// serveConfig is the parsed `ahptui serve` command line.
type serveConfig struct {
	// Addr is the TCP address to listen on.
	Addr string
	// Options configure the host (Logger is left nil).
	Options ahphost.Options
	// LogLevel is the minimum level logged to standard error.
	LogLevel slog.Level
	// ExitWithStdin stops serving when standard input reaches EOF.
	ExitWithStdin bool
	// AgentArgs are the --agent values (NAME[=COMMAND]), in order.
	AgentArgs []string
	// StateDir is the host's state directory: its database and the
	// agents' session index ("" = the user state directory).
	StateDir string
	// Detach starts the host as a daemon and returns (servedetach.go).
	Detach bool
	// Ephemeral keeps no state on disk (--ephemeral).
	Ephemeral bool
	// NewToken makes a new kept token (--new-token; servetoken.go).
	NewToken bool
}

// parseServeFlags parses the arguments after `ahptui serve`. Sizes accept
// plain bytes or a k/m suffix (powers of 1024, e.g. 64k, 16m). The fault
// injection flags map onto Options.Faults: --frame-delay (FrameDelay),
// --drop-after N (DropAfterFrames), --silent-for/--silent-after (SilentFor,
// SilentAfter). --help returns flag.ErrHelp.
func parseServeFlags(args []string) (serveConfig, error) {
	cfg := serveConfig{Addr: defaultServeAddr}
	var maxFrame, relayCap, level string
	fs := serveFlags(&cfg, &maxFrame, &relayCap, &level)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	tokenSet := false
	fs.Visit(func(f *flag.Flag) { tokenSet = tokenSet || f.Name == "token" })
	if tokenSet && cfg.Options.Token == "" {
		// (No word right after "--token" in these messages: the log
		// masker would take it for the token.)
		return cfg, errors.New("serve: empty token (--token): give one, or use --without-connection-token")
	}
	if cfg.Options.NoToken && cfg.Options.Token != "" {
		return cfg, errors.New("serve: give either a token (--token) or --without-connection-token, not both")
	}
	if cfg.Options.NoToken && cfg.Options.WatchToken != "" {
		return cfg, errors.New("serve: --watch-token needs a connection token (without one every client may do everything)")
	}
	var err error
	if cfg.Options.MaxFrameBytes, err = parseSize("--max-frame", maxFrame); err != nil {
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if cfg.Options.RelayFrameCap, err = parseSize("--relay-frame-cap", relayCap); err != nil {
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if cfg.Options.Pace < 0 || cfg.Options.Faults.FrameDelay < 0 {
		return cfg, errors.New("serve: --pace and --frame-delay must not be negative")
	}
	if f := cfg.Options.Faults; f.DropAfterFrames < 0 || f.SilentFor < 0 || f.SilentAfter < 0 {
		return cfg, errors.New("serve: --drop-after, --silent-for and --silent-after must not be negative")
	}
	if f := cfg.Options.Faults; f.SilentAfter > 0 && f.SilentFor == 0 {
		return cfg, errors.New("serve: --silent-after needs --silent-for DURATION")
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(level)); err != nil {
		return cfg, fmt.Errorf("serve: --log-level %q: want debug, info, warn or error", level)
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return cfg, fmt.Errorf("serve: --addr %q: %w", cfg.Addr, err)
	}
	return cfg, nil
}

// serveFlags defines the `ahptui serve` flags on a new FlagSet writing into
// cfg and the string flags that parseServeFlags converts afterwards.
func serveFlags(cfg *serveConfig, maxFrame, relayCap, level *string) *flag.FlagSet {
	fs := flag.NewFlagSet("ahptui serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.Addr, "addr", defaultServeAddr, "listen address")
	fs.StringVar(&cfg.Options.Token, "token", "", "connection token (default: random)")
	fs.BoolVar(&cfg.Options.NoToken, "without-connection-token", false, "accept connections without a token")
	fs.StringVar(&cfg.Options.WatchToken, "watch-token", "", "a second token whose clients may only watch: subscribe and read, never dispatch or create")
	fs.StringVar(&cfg.Options.Dir, "dir", "", "working directory for the demo agent's read-only tools")
	fs.Func("allow-host", "without a token, also accept this Host header name (repeatable; DNS-rebinding guard)", func(s string) error { cfg.Options.AllowedHosts = append(cfg.Options.AllowedHosts, s); return nil })
	fs.StringVar(maxFrame, "max-frame", "", "receive ceiling per frame in bytes (default 16m)")
	fs.StringVar(relayCap, "relay-frame-cap", "", "behave like a relay: close on any frame above this size")
	fs.DurationVar(&cfg.Options.Pace, "pace", defaultServePace, "demo streaming pace between deltas (0 = instant)")
	fs.DurationVar(&cfg.Options.Faults.FrameDelay, "frame-delay", 0, "fault injection: delay every outgoing frame")
	fs.IntVar(&cfg.Options.Faults.DropAfterFrames, "drop-after", 0,
		"fault injection: drop each connection abruptly (no close frame) after it has been sent `N` frames (0 = off)")
	fs.DurationVar(&cfg.Options.Faults.SilentFor, "silent-for", 0,
		"fault injection: go silent once for this long (no frame answered or written, no close; 0 = off)")
	fs.DurationVar(&cfg.Options.Faults.SilentAfter, "silent-after", 0,
		"fault injection: start the --silent-for silence this long after listening (default: at once)")
	fs.Func("agent", "serve this ACP agent, `NAME=COMMAND` (repeatable; default: the demo agent)", func(s string) error { cfg.AgentArgs = append(cfg.AgentArgs, s); return nil })
	fs.StringVar(&cfg.StateDir, "state-dir", "", "the host's state directory: its sessions (state.db) and the agents' session index (default: the user state directory)")
	fs.BoolVar(&cfg.Ephemeral, "ephemeral", false, "keep no sessions on disk: they end with the host")
	fs.BoolVar(&cfg.NewToken, "new-token", false, "make a new random connection token (a durable host without --token keeps its token in the state directory across restarts)")
	fs.Func("state-budget", "bound the state database (`SIZE`, e.g. 2g or 512m; default 16g): past it the oldest archived sessions' chats are dropped first", func(s string) error {
		n, err := parseSize("--state-budget", s)
		cfg.Options.StateBudget = n
		return err
	})
	fs.StringVar(level, "log-level", "info", "log level: debug, info, warn, error")
	fs.BoolVar(&cfg.ExitWithStdin, "exit-with-stdin", false, "stop when standard input reaches end of file")
	fs.BoolVar(&cfg.Detach, "detach", false, "run in the background, detached (log: serve.log in the user state directory, $XDG_STATE_HOME/ahptui, whatever --state-dir); print the URL and return")
	return fs
}

// serveHelp returns the `ahptui serve --help` text: the usage line and every
// flag with its description and default.
func serveHelp() string {
	var cfg serveConfig
	var a, b, c string
	fs := serveFlags(&cfg, &a, &b, &c)
	var sb strings.Builder
	sb.WriteString(serveUsage + "\n\nflags:\n")
	fs.SetOutput(&sb)
	fs.PrintDefaults()
	return sb.String()
}

// hostOfURL returns the host:port of a ws:// URL ("" if none).
func hostOfURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// parseSize parses a byte count with an optional k or m suffix.
func parseSize(name, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	t := strings.ToLower(strings.TrimSpace(s))
	for _, suf := range []struct {
		s string
		m int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("%s %q: want a positive byte count (e.g. 65536, 64k, 16m, 2g)", name, s)
	}
	return n * mult, nil
}

// serveMain implements `ahptui serve`: it parses args, starts a host,
// prints the connect URL as the first line of stdout, then logs to stderr
// (never the token; lines logged before the URL is printed are held back
// until after it) and serves until ctx is cancelled (by SIGINT, SIGTERM or
// SIGHUP). It returns the process exit code: 0 after a clean shutdown,
// exitUsage for bad arguments, exitError for other failures.
func serveMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return serveMainIn(ctx, args, stdio{out: stdout, err: stderr})
}

// serveMainIn is serveMain with standard input, which --exit-with-stdin
// watches: serve stops when it reaches EOF (as when the SSH connection of
// `ahptui ssh --start` ends).
func serveMainIn(ctx context.Context, args []string, std stdio) int {
	return serveMainWith(ctx, args, std, "")
}

// serveMainWith is serveMainIn with the global --config file ("" = the
// default path), where `--agent NAME` finds its [agents.NAME] table.
func serveMainWith(ctx context.Context, args []string, std stdio, configFile string) int {
	return serveRun(ctx, args, std, configFile, false)
}

// serveRun is serveMainWith; ownProcess is true when serve is the whole
// process (`ahptui serve`, not a test calling it): only then does it become
// the subreaper of what its agents start (subreaper_linux.go).
func serveRun(ctx context.Context, args []string, std stdio, configFile string, ownProcess bool) int {
	stdout, stderr := std.out, std.err
	cfg, err := parseServeFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, serveHelp())
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "ahptui:", redact.String(err.Error()))
		fmt.Fprintln(stderr, serveUsage)
		return exitUsage
	}
	if cfg.Detach {
		return detachServe(args, configFile, std)
	}
	if err := configWatchToken(&cfg, configFile); err != nil {
		fmt.Fprintln(stderr, "ahptui: serve:", redact.String(err.Error()))
		return exitUsage
	}
	detached := lookupEnv(detachedEnv) == "1" // started by serve --detach (servedetach.go)
	_ = os.Unsetenv(detachedEnv)              // not for the agents' children
	if cfg.ExitWithStdin && std.in != nil {
		// When the SSH link of `ssh --start` drops, stdout and stderr are
		// gone too: the shutdown's first log line would kill the process
		// with SIGPIPE before it closes its agents and removes its state
		// file. Receiving SIGPIPE makes such writes fail instead.
		pipe := make(chan os.Signal, 1)
		signal.Notify(pipe, syscall.SIGPIPE)
		defer signal.Stop(pipe)
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			_, _ = io.Copy(io.Discard, std.in)
			cancel()
		}()
	}
	gate := newGatedWriter(stderr, maxHeldLog)
	defer gate.open()
	log := slog.New(slog.NewTextHandler(gate, &slog.HandlerOptions{Level: cfg.LogLevel}))
	cfg.Options.Logger = log
	cfg.Options.ReleaseMemory = debug.FreeOSMemory // after a long reply was stored as pages
	log.Debug("memory limit", "bytes", applyServeMemoryLimit())
	// $AHPTUI_CPUPROFILE: the host's CPU profile (profile.go)
	defer startProfile(log)()
	cfg.Options.AllowedHosts = append(cfg.Options.AllowedHosts, cfg.Addr) // the --addr name is this machine
	if d, err := stateDir(lookupEnv); err == nil {
		if cfg.StateDir == "" {
			cfg.StateDir = d
		}
		// The log and serve.json there are no session's changes.
		cfg.Options.Unwatched = append(cfg.Options.Unwatched, d)
	}
	// The sessions live in the state directory's database (issue 28);
	// --ephemeral keeps nothing (evicted pages go to a directory removed
	// at exit).
	cfg.Options.StateDir = cfg.StateDir
	cfg.Options.Durable = !cfg.Ephemeral && cfg.StateDir != ""
	if st, err := os.Stat(cfg.StateDir); cfg.Options.Durable && err == nil && !st.IsDir() {
		gate.open()
		fmt.Fprintf(stderr, "ahptui: serve: --state-dir %s is not a directory: give a directory (it is made if missing)\n", cfg.StateDir)
		return exitUsage
	}
	if cfg.Options.Durable && cfg.Options.Token == "" && !cfg.Options.NoToken {
		tok, made, err := keptToken(cfg.StateDir, cfg.NewToken)
		if err != nil {
			gate.open()
			fmt.Fprintln(stderr, "ahptui: serve:", redact.String(err.Error()))
			return exitError
		}
		cfg.Options.Token = tok
		if made {
			log.Info("made a connection token, kept in the state directory for the next starts", "file", filepath.Join(cfg.StateDir, tokenFile))
		} else {
			log.Info("using the connection token kept in the state directory (--new-token makes another)", "file", filepath.Join(cfg.StateDir, tokenFile))
		}
	}
	if ownProcess {
		// Deferred before the agents' and the host's Close: runs after them.
		defer startSubreaper(log)()
	}
	closeAgents, err := wireServeAgents(&cfg, configFile, log)
	if err != nil {
		gate.open()
		fmt.Fprintln(stderr, "ahptui: serve:", err)
		return exitUsage
	}
	defer closeAgents()
	h, err := ahphost.New(cfg.Options)
	if err != nil {
		gate.open()
		fmt.Fprintln(stderr, "ahptui: serve:", err)
		return exitError
	}
	defer h.Close()
	u, err := h.Listen(cfg.Addr)
	if err != nil {
		gate.open()
		if errors.Is(err, syscall.EADDRINUSE) {
			err = fmt.Errorf("%s is in use by another program (another ahptui serve?): stop it, or give this host another --addr "+
				"(127.0.0.1:0 picks a free port)", cfg.Addr)
		}
		fmt.Fprintf(stderr, "ahptui: serve: %v\n", err)
		return exitError
	}
	if _, err := fmt.Fprintln(stdout, u); err != nil {
		return exitError
	}
	gate.open()
	st := serveState{URL: u, Addr: hostOfURL(u), Token: h.Token(), PID: os.Getpid(), Version: version, Agents: cfg.AgentArgs, Bin: executablePath(),
		Detached: detached}
	if remove, err := writeServeState(st); err != nil {
		log.Warn("cannot write the serve state file (ahptui ssh will not find this host)", "err", err)
	} else {
		defer remove()
	}
	log.Info("ahptui host ready", "url", redact.String(u), "dir", cfg.Options.Dir,
		"maxFrame", cfg.Options.MaxFrameBytes, "relayFrameCap", cfg.Options.RelayFrameCap)
	<-ctx.Done()
	log.Info("shutting down")
	return exitOK
}
