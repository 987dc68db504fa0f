package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/ahptui/ahptui/ahpclient"
	cfgfile "github.com/ahptui/ahptui/internal/config"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/tui"
	"github.com/ahptui/ahptui/tui/app"
)

// The UI's inbox: with hosts in the config file, the session picker lists
// the sessions of every one of them. The UI dials each host on its own
// (tui.HostOption.Connect runs as a command, so a host that is down or slow
// never delays the others) and keeps a connection to every host it
// reached; hostSet owns those connections and closes them at exit.

// hostClient is a watched host's client and its SSH tunnel (ssh hosts).
type hostClient struct {
	*ahpclient.Client
	link *sshLink
}

// Close ends the client, then the tunnel.
func (h *hostClient) Close() error {
	err := h.Client.Close()
	if h.link != nil {
		h.link.close()
	}
	return err //nolint:wrapcheck // ahpclient.Close never fails
}

// hostSet dials the configured hosts for the UI and closes them at exit.
type hostSet struct {
	mu     sync.Mutex
	open   []*hostClient
	closed bool
}

// options lists every configured host for tui.Options.Hosts.
func (hs *hostSet) options(cfg config, f *cfgfile.File, dir string, log *slog.Logger) []tui.HostOption {
	var out []tui.HostOption
	for _, n := range f.HostsInFileOrder() {
		h, err := f.Lookup(n)
		if err != nil {
			continue
		}
		label := n
		switch {
		case h.SSH != "":
			label += " (ssh " + h.SSH + ")"
		case h.URL != "":
			label += " (" + hostLabel(h.URL) + ")"
		}
		out = append(out, tui.HostOption{Name: n, Label: redact.String(label), Connect: func(ctx context.Context) (app.Backend, error) {
			return hs.dial(ctx, cfg, f, n, dir, log.With("host", n))
		}})
	}
	return out
}

// dial connects to one configured host (within connectTimeout). Its error
// is masked: the UI shows it.
func (hs *hostSet) dial(ctx context.Context, cfg config, f *cfgfile.File, name, dir string, log *slog.Logger) (app.Backend, error) {
	t, err := resolveTarget(ctx, cfg, f, name, "")
	if err != nil {
		return nil, redact.New(cfg.token).Error(err)
	}
	log = slog.New(redactHandler(log, t.token)) // this host's token never reaches the log
	c, link, _, _, err := dialTarget(ctx, cfg, attachOnly(t), dir, log, true)
	if err != nil {
		// Masked, and still unwrapping to the client's error: the UI words
		// it for people ("the host refused the connection", …).
		return nil, redact.New(t.token, cfg.token).WithURL(t.url).Error(err)
	}
	b := &hostClient{Client: c, link: link}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.closed { // the UI ended while dialling
		_ = b.Close()
		return nil, fmt.Errorf("host %s: %w", name, ahpclient.ErrClosed)
	}
	hs.open = append(hs.open, b)
	return b, nil
}

// close ends every connection the set opened (in parallel: an SSH tunnel
// may take a moment to go).
func (hs *hostSet) close() {
	hs.mu.Lock()
	hs.closed = true
	open := hs.open
	hs.open = nil
	hs.mu.Unlock()
	var wg sync.WaitGroup
	for _, b := range open {
		wg.Add(1)
		go func() { defer wg.Done(); _ = b.Close() }()
	}
	wg.Wait()
}

// configuredAs is the name of the configured host whose URL is rawURL
// (credentials and trailing slash aside), "" if none: attaching by URL to
// a configured host is attaching to that host (one group, one connection).
func configuredAs(f *cfgfile.File, rawURL string) string {
	norm := func(u string) string { return strings.TrimSuffix(strings.TrimSuffix(stripQuery(u), "?…"), "/") }
	want := norm(rawURL)
	for _, n := range f.HostsInFileOrder() {
		if h, err := f.Lookup(n); err == nil && h.URL != "" && norm(h.URL) == want {
			return n
		}
	}
	return ""
}
