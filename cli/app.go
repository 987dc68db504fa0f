package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/tui"
)

// defaultDemoPace is the demo agent's delay between streamed deltas.
const defaultDemoPace = 12 * time.Millisecond

// demoOutage is how long the demo host refuses new connections after the
// demo fault key dropped them, so that "Reconnecting n" is visible.
const demoOutage = 2 * time.Second

func runServe(cfg config, std stdio) int {
	ctx, stop := signal.NotifyContext(context.Background(), append([]os.Signal{os.Interrupt}, termSignals...)...)
	defer stop()
	return serveRun(ctx, cfg.subArgs, std, cfg.configFile, true)
}

// session is what runDemo/runAttach set up before the UI starts.
type session struct {
	log           *slog.Logger // file-only, tokens masked
	demoFault     func()       // demo fault key (nil outside the demo)
	hostInProcess bool         // the host stops when the UI quits (demo)
	openSession   string       // open this session at start (--agent)
	startNotice   string       // a warning the UI shows at start
}

// setupLog opens the log file: --log, or ahptui.log in the state dir.
func setupLog(cfg config, secrets ...string) (*slog.Logger, *logFile, string, error) {
	path := cfg.logFile
	dir, err := stateDir(lookupEnv)
	if err != nil {
		return nil, nil, "", err
	}
	if path == "" {
		path = filepath.Join(dir, "ahptui.log")
	}
	log, c, err := openLog(path, secrets...)
	return log, c, dir, err
}

func runDemo(cfg config, std stdio) int {
	f, ok := readConfig(&cfg, std, true)
	if !ok {
		return exitUsage
	}
	faults := lookupEnv("AHPTUI_DEMO_FAULTS")
	dropAfter, faultsOn, err := parseFaults(faults)
	if err != nil {
		printErr(std.err, "ahptui: AHPTUI_DEMO_FAULTS: %v\n", err)
		return exitUsage
	}
	pace := defaultDemoPace
	if p := lookupEnv("AHPTUI_DEMO_PACE"); p != "" {
		if pace, err = time.ParseDuration(p); err != nil || pace < 0 {
			printErr(std.err, "ahptui: AHPTUI_DEMO_PACE: %q is not a duration\n", p)
			return exitUsage
		}
	}
	log, lc, dir, err := setupLog(cfg)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitError
	}
	defer lc.Close()
	wd, err := os.Getwd()
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitError
	}
	agents, closeAgents, err := uiAgents(cfg, wd, pace, log)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitUsage
	}
	defer closeAgents()
	opts := ahphost.Options{
		Dir: wd, Pace: pace, Logger: log.With("component", "host"), Agents: agents,
		Faults:        ahphost.Faults{DropAfterFrames: dropAfter},
		ReleaseMemory: debug.FreeOSMemory, // after a long reply was stored as pages (docs/benchmarks/rounds-2026-11.md, issue 12)
		// Sessions are kept per user (hoststate.go); AHPTUI_EPHEMERAL=1 keeps nothing.
		Durable:  lookupEnv("AHPTUI_EPHEMERAL") == "",
		StateDir: embeddedStateDir(dir, cfg.agentArgs),
		// The log and prompt history there are no session's changes
		// (`ahptui demo` in the home directory).
		Unwatched: []string{dir},
	}
	h, err := ahphost.New(opts)
	keepsNone := false
	if err != nil && ahphost.IsStateLocked(err) {
		// Another ahptui holds these sessions: this run keeps none.
		log.Warn("sessions of this run are not kept", "err", err)
		printErr(std.err, "ahptui: %v\nahptui: this run keeps no sessions\n", err)
		opts.Durable, opts.StateDir, keepsNone = false, "", true
		h, err = ahphost.New(opts)
	}
	if err != nil {
		printErr(std.err, "ahptui: demo host: %v\n", err)
		return exitError
	}
	defer h.Close()
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		printErr(std.err, "ahptui: demo host: %v\n", err)
		return exitError
	}
	if cfg.printURL {
		return serveDemoURL(std, u)
	}
	removeToken, err := announceDemoHost(agents, u, h.Token()) // for /demo url
	if err != nil {
		log.Warn("cannot write the demo token file (/demo url will not name one)", "err", err)
	}
	defer removeToken()
	if len(f.Hosts) > 0 { // the configured hosts are listed beside the demo's
		cfg.hostFile = f
	}
	s := &session{log: lc.logger(h.Token()), hostInProcess: true}
	if keepsNone { // said on stderr too, which the UI's screen hides
		s.startNotice = "this run keeps no sessions: another ahptui holds them (see ahptui.log)"
	}
	if len(cfg.agentArgs) > 0 { // straight into a new chat in the current directory
		if s.openSession, err = newAgentSession(h); err != nil {
			printErr(std.err, "ahptui: %v\n", err)
			return exitError
		}
		defer h.DropUnusedSession(s.openSession) // runs before h.Close
	}
	if faultsOn {
		s.demoFault = func() { h.Outage(demoOutage) }
	}
	return attachAndRun(cfg, std, s, u, dir, wd)
}

func runAttach(cfg config, std stdio) int {
	f, ok := readConfig(&cfg, std, true)
	if !ok {
		return exitUsage
	}
	if len(f.Hosts) > 0 {
		cfg.hostFile = f
	}
	if cfg.hostName == "" && cfg.url == "" && f.Default == "" && len(f.Hosts) > 0 && isTerminal(std.in) && isTerminal(std.out) {
		return runInboxUI(cfg, std)
	}
	t, err := resolveTarget(context.Background(), cfg, f, cfg.hostName, cfg.url)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		if _, ok := err.(*usageError); ok {
			printErr(std.err, "Run 'ahptui --help' for usage.\n")
		}
		return exitUsage
	}
	cfg.attachedName = t.name
	if t.name == "" && cfg.hostFile != nil {
		cfg.attachedName = configuredAs(f, t.url)
	}
	if t.ssh != nil {
		return runSSHHost(cfg, std, t)
	}
	cfg.url, cfg.token = t.url, t.token
	log, lc, dir, err := setupLog(cfg, cfg.token)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitError
	}
	defer lc.Close()
	return attachAndRun(cfg, std, &session{log: log}, cfg.url, dir, "")
}

// attachAndRun connects (printing a plain error and returning exitConnect
// when that fails), then runs the UI until the user quits.
func attachAndRun(cfg config, std stdio, s *session, url, dir, workDir string) int {
	c, err := ahpclient.New(ahpclient.Options{
		URL: url, Token: cfg.token, StateDir: dir, ExplicitAck: true,
		Logger: s.log.With("component", "client"),
	})
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitUsage
	}
	defer c.Close()
	host := c.URL()
	// In a terminal the UI connects itself behind a connecting screen (URL,
	// time spent, how to quit); otherwise connect first, with a plain error.
	onScreen := isTerminal(std.in) && isTerminal(std.out)
	start := func(ctx context.Context) error {
		sctx, cancel := context.WithTimeout(ctx, connectTimeout)
		defer cancel()
		return c.Start(sctx) //nolint:wrapcheck // ahpclient's errors are complete and masked
	}
	if !onScreen {
		ctx, caught, stop := watchSignals(context.Background())
		err = start(ctx)
		stop()
		if err != nil {
			if sig := caught(); sig != nil {
				return signalExitCode(sig)
			}
			s.log.Error("cannot connect", "host", host, "err", err)
			printErr(std.err, "ahptui: cannot connect to %s: %v\n", host, err)
			return exitConnect
		}
		s.log.Info("connected", "host", host)
	}
	o := tui.Options{
		Backend: c, Host: hostLabel(host), Dark: isDark(cfg.theme), NoMouse: cfg.noMouse,
		AutoTheme: cfg.theme == "auto" && lookupEnv("COLORFGBG") == "",
		Editor:    editorCommand(), WorkingDir: workDir, DemoFault: s.demoFault, HostStopsOnQuit: s.hostInProcess,
		Logger: s.log.With("component", "tui"), KeyMap: cfg.keys, Notify: cfg.notify,
		ReleaseMemory: debug.FreeOSMemory, // after a long reply's text was dropped (see docs/benchmarks/rounds-2026-11.md, issue 12 H2)
		HistoryFile:   historyFile(dir, cfg, s, hostLabel(host)),
		QuickStart:    true, // a host with no sessions opens into a new chat

	}
	o.OpenSession, o.StartNotice = s.openSession, s.startNotice
	if cfg.hostFile != nil {
		var hs hostSet
		defer hs.close()
		o.Hosts, o.HostName = hs.options(cfg, cfg.hostFile, dir, s.log), cfg.attachedName
		if cfg.attachedName != "" { // as after switching to it: "name (host:port)"
			o.Host = cfg.attachedName + " (" + o.Host + ")"
		}
	}
	if onScreen {
		o.Connect, o.URL = start, host
	}
	// Every command of the UI (the connect above included) ends with it,
	// so quitting while the host does not answer is immediate.
	uiCtx, endUI := context.WithCancel(context.Background())
	defer endUI()
	o.Context = uiCtx
	m := tui.New(o)
	if getenvTestPanic() {
		go func() {
			time.Sleep(500 * time.Millisecond)
			panic("AHPTUI_TEST_PANIC: deliberate crash outside the UI goroutine")
		}()
	}
	p := tea.NewProgram(m, tea.WithoutSignalHandler())
	final, code := runUI(p, std, s.log)
	endUI()
	if code >= 0 {
		return code
	}
	if fm, ok := final.(tui.Model); ok {
		if ferr := fm.ConnectionFailure(); ferr != nil {
			s.log.Error("connection failed", "host", host, "err", ferr)
			printErr(std.err, "ahptui: connection to %s failed: %v\n", host, ferr)
			return exitConnect
		}
	}
	return exitOK
}

// runInboxUI opens the UI on the session picker of every configured host
// (plain `ahptui` with hosts but no default host): each host connects on
// its own, and the first one up is attached until the user picks a session.
func runInboxUI(cfg config, std stdio) int {
	log, lc, dir, err := setupLog(cfg, cfg.token)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitError
	}
	defer lc.Close()
	var hs hostSet
	defer hs.close()
	uiCtx, endUI := context.WithCancel(context.Background())
	defer endUI()
	m := tui.New(tui.Options{
		Hosts: hs.options(cfg, cfg.hostFile, dir, log), Host: "inbox", Context: uiCtx,
		Dark: isDark(cfg.theme), NoMouse: cfg.noMouse, AutoTheme: cfg.theme == "auto" && lookupEnv("COLORFGBG") == "",
		Editor: editorCommand(), Logger: log.With("component", "tui"), KeyMap: cfg.keys, Notify: cfg.notify,
		HistoryFile: historyFile(dir, cfg, nil, "inbox"),
	})
	_, code := runUI(tea.NewProgram(m, tea.WithoutSignalHandler()), std, log)
	endUI()
	return max(code, exitOK)
}

// hostLabel shortens a (token-free) URL to host:port for the status line.
func hostLabel(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "ws://"), "wss://")
	return strings.TrimSuffix(strings.TrimSuffix(stripQuery(u), "?…"), "/")
}

// parseFaults reads AHPTUI_DEMO_FAULTS: "" (off), "1"/"on" (f12 drops the
// connection), "drop-after=N" (also drop every connection after N frames).
func parseFaults(v string) (dropAfter int, on bool, err error) {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "" || f == "0" || f == "off":
		case f == "1" || f == "on" || f == "key":
			on = true
		case strings.HasPrefix(f, "drop-after="):
			n, err := strconv.Atoi(strings.TrimPrefix(f, "drop-after="))
			if err != nil || n < 1 {
				return 0, false, fmt.Errorf("%q: drop-after needs a positive frame count", f)
			}
			dropAfter, on = n, true
		default:
			return 0, false, fmt.Errorf("unknown setting %q (use 1, on or drop-after=N)", f)
		}
	}
	return dropAfter, on, nil
}

// isDark picks the colour scheme: --theme, else $COLORFGBG, else dark.
func isDark(theme string) bool {
	switch theme {
	case "dark":
		return true
	case "light":
		return false
	}
	if v := lookupEnv("COLORFGBG"); v != "" {
		parts := strings.Split(v, ";")
		if bg, err := strconv.Atoi(parts[len(parts)-1]); err == nil {
			return bg < 7 || bg == 8
		}
	}
	return true
}

// editorCommand is $VISUAL, $EDITOR or vi.
func editorCommand() string {
	for _, k := range []string{"VISUAL", "EDITOR"} {
		if v := strings.TrimSpace(lookupEnv(k)); v != "" {
			return v
		}
	}
	return "vi"
}
