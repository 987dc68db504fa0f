package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/internal/redact"
)

// connectTimeout bounds the first connection of a command without the UI.
const connectTimeout = 20 * time.Second

// headless is what a command without the UI needs: a started client, its
// driver and the log.
type headless struct {
	c    *ahpclient.Client
	d    *driver
	log  *slog.Logger
	lc   *logFile
	link *sshLink // the SSH tunnel of an ssh host, or nil
}

// close releases the client, the SSH link and the log.
func (h *headless) close() {
	_ = h.c.Close()
	if h.link != nil {
		h.link.close()
	}
	_ = h.lc.Close()
}

// connectHeadless resolves the target (URL or @name) and connects. On
// failure it prints the error and returns the exit code (usage or connect).
func connectHeadless(ctx context.Context, cfg config, std stdio, name, rawURL string) (*headless, int) {
	f, ok := readConfig(&cfg, std, false)
	if !ok {
		return nil, exitUsage
	}
	t, err := resolveTarget(ctx, cfg, f, name, rawURL)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return nil, exitUsage
	}
	log, lc, dir, err := setupLog(cfg, t.token)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return nil, exitError
	}
	c, link, log, code, err := dialTarget(ctx, cfg, t, dir, log, false)
	if err != nil {
		_ = lc.Close()
		printErr(std.err, "ahptui: %v\n", err)
		return nil, code
	}
	if link != nil {
		for _, n := range link.notes {
			printErr(std.err, "ahptui: ssh: %s\n", n)
		}
	}
	return &headless{c: c, d: newDriver(c), log: log, lc: lc, link: link}, -1
}

// dialTarget opens the SSH link of an ssh host (if any) and starts a
// client on the target. On failure it returns the exit code and an error
// for the user (masked by printErr). explicitAck is ahpclient's
// Options.ExplicitAck (the UI acknowledges envelopes once applied).
func dialTarget(ctx context.Context, cfg config, t target, dir string, log *slog.Logger, explicitAck bool) (*ahpclient.Client, *sshLink, *slog.Logger, int, error) {
	var link *sshLink
	if t.ssh != nil {
		configured := ""
		if t.token != cfg.token || cfg.tokenFlag {
			configured = t.token
		}
		var err error
		if link, err = openSSH(ctx, sshOptsFor(t.ssh), log); err != nil {
			log.Error("ssh failed", "host", t.name, "err", err)
			return nil, nil, log, exitConnect, fmt.Errorf("ssh: %w", err)
		}
		t.url, t.token = link.url, pickToken(cfg, configured, link.host.token)
		log = slog.New(redactHandler(log.With("ssh", t.name), t.token))
	}
	closeLink := func() {
		if link != nil {
			link.close()
		}
	}
	c, err := ahpclient.New(ahpclient.Options{URL: t.url, Token: t.token, TokenParam: t.param, StateDir: dir, ExplicitAck: explicitAck,
		Logger: log.With("component", "client")})
	if err != nil {
		closeLink()
		return nil, nil, log, exitUsage, err //nolint:wrapcheck // ahpclient's message is complete
	}
	sctx, cancel := context.WithTimeout(ctx, connectTimeout)
	err = c.Start(sctx)
	cancel()
	if err != nil {
		log.Error("cannot connect", "host", c.URL(), "err", err)
		u := c.URL()
		_ = c.Close()
		closeLink()
		return nil, nil, log, exitConnect, fmt.Errorf("cannot connect to %s: %w", u, err)
	}
	log.Info("connected", "host", c.URL())
	return c, link, log, -1, nil
}

// redactHandler wraps l's handler so that it also masks secret.
func redactHandler(l *slog.Logger, secret string) slog.Handler {
	return redact.NewHandler(l.Handler(), redact.New(secret))
}

// splitTarget takes an optional leading URL or @name off args.
func splitTarget(args []string) (name, rawURL string, rest []string) {
	if len(args) > 0 {
		a := args[0]
		switch {
		case len(a) > 1 && a[0] == '@':
			return a[1:], "", args[1:]
		case hasScheme(a):
			return "", a, args[1:]
		}
	}
	return "", "", args
}

// hasScheme reports whether s looks like a host URL.
func hasScheme(s string) bool {
	for _, p := range []string{"ws://", "wss://", "ws+unix://"} {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}
