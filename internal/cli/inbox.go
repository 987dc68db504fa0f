package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	cfgfile "github.com/ahptui/ahptui/internal/config"
	"github.com/ahptui/ahptui/tui"
)

// inboxHostTimeout bounds each host of `sessions --all`: a host that is
// down does not slow the others (they are asked in parallel).
const inboxHostTimeout = 15 * time.Second

// inboxHost is one configured host's part of the inbox.
type inboxHost struct {
	Name     string                   `json:"host"`
	State    string                   `json:"state"` // connected, or the error
	Sessions []ahpwire.SessionSummary `json:"-"`
}

// collectInbox asks every configured host for its sessions, in parallel.
func collectInbox(ctx context.Context, cfg config, f *cfgfile.File) []inboxHost {
	names := f.HostNames()
	out := make([]inboxHost, len(names))
	log, lc, dir, err := setupLog(cfg, cfg.token)
	if err != nil {
		for i, n := range names {
			out[i] = inboxHost{Name: n, State: err.Error()}
		}
		return out
	}
	defer lc.Close()
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = inboxFrom(ctx, cfg, f, n, dir, log.With("host", n), nil)
		}()
	}
	wg.Wait()
	return out
}

// inboxFrom lists one host's sessions (connecting and listing within
// inboxHostTimeout). With live set, it then keeps the connection and calls
// live with the host's new state on every change (sessions added, removed
// or changed, connection state) until ctx ends.
func inboxFrom(ctx context.Context, cfg config, f *cfgfile.File, name, dir string, log *slog.Logger, live func(inboxHost)) inboxHost {
	h := inboxHost{Name: name}
	cctx, cancel := context.WithTimeout(ctx, inboxHostTimeout)
	defer cancel()
	t, err := resolveTarget(cctx, cfg, f, name, "")
	if err != nil {
		h.State = redactErr(err)
		return h
	}
	c, link, _, _, err := dialTarget(cctx, cfg, t, dir, log)
	if err != nil {
		h.State = redactErr(err)
		return h
	}
	defer func() {
		_ = c.Close()
		if link != nil {
			link.close()
		}
	}()
	cursor := ""
	for page := 0; page < maxPages; page++ {
		res, err := c.ListSessions(cctx, sessionsPage, cursor)
		if err != nil {
			h.State = redactErr(err)
			return h
		}
		h.Sessions = append(h.Sessions, res.Items...)
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	h.State = "connected"
	sortInbox(h.Sessions)
	if live == nil {
		return h
	}
	live(h)
	for {
		ev, err := c.Next(ctx)
		if err != nil {
			return h
		}
		if applyInboxEvent(&h, ev) {
			sortInbox(h.Sessions)
			live(inboxHost{Name: h.Name, State: h.State, Sessions: append([]ahpwire.SessionSummary(nil), h.Sessions...)})
		}
	}
}

// applyInboxEvent updates a host's inbox entry from a client event and
// reports whether anything changed.
func applyInboxEvent(h *inboxHost, ev ahpclient.Event) bool {
	switch e := ev.(type) {
	case ahpclient.ConnStateEvent:
		switch e.State.Phase {
		case ahpclient.Connected:
			h.State = "connected"
		case ahpclient.Reconnecting:
			h.State = "reconnecting…"
		case ahpclient.Failed:
			h.State = redactErr(fmt.Errorf("failed: %w", e.State.Err))
		default:
			return false
		}
		return true
	case ahpclient.NotificationEvent:
		switch e.Method {
		case ahpwire.MethodSessionAdded:
			var p ahpwire.SessionAddedParams
			if json.Unmarshal(e.Params, &p) != nil {
				return false
			}
			h.Sessions = slices.DeleteFunc(h.Sessions, func(s ahpwire.SessionSummary) bool { return s.Resource == p.Summary.Resource })
			h.Sessions = append(h.Sessions, p.Summary)
			return true
		case ahpwire.MethodSessionRemoved:
			var p ahpwire.SessionRemovedParams
			if json.Unmarshal(e.Params, &p) != nil {
				return false
			}
			h.Sessions = slices.DeleteFunc(h.Sessions, func(s ahpwire.SessionSummary) bool { return s.Resource == p.Session })
			return true
		case ahpwire.MethodSessionSummaryChanged:
			var p ahpwire.SessionSummaryChangedParams
			if json.Unmarshal(e.Params, &p) != nil {
				return false
			}
			for i := range h.Sessions {
				if h.Sessions[i].Resource == p.Session {
					h.Sessions[i] = p.Changes.Apply(h.Sessions[i])
					return true
				}
			}
		}
	}
	return false
}

// sortInbox puts the sessions that need the user first.
func sortInbox(ss []ahpwire.SessionSummary) {
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].AttentionRank() < ss[j].AttentionRank() })
}

// writeInbox prints the inbox grouped by host, or NDJSON.
func writeInbox(w io.Writer, hosts []inboxHost, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, h := range hosts {
			_ = enc.Encode(map[string]any{"type": "host", "host": h.Name, "state": h.State, "sessions": len(h.Sessions)})
			for _, s := range h.Sessions {
				_ = enc.Encode(map[string]any{"type": "session", "host": h.Name, "session": s,
					"needsUser": s.NeedsUser(), "unread": !s.Status.Has(ahpwire.StatusIsRead)})
			}
		}
		return
	}
	for i, h := range hosts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "@%s — %s\n", h.Name, sanitizeLine(h.State))
		if len(h.Sessions) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		for _, s := range h.Sessions {
			mark := " "
			switch {
			case s.NeedsUser():
				mark = "!"
			case !s.Status.Has(ahpwire.StatusIsRead):
				mark = "*"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", mark, sanitizeLine(strings.TrimPrefix(s.Resource, "ahp-session:/")),
				statusWord(s.Status), sanitizeLine(s.Title))
		}
		_ = tw.Flush()
	}
}

// statusWord names a session status for people.
func statusWord(st ahpwire.SessionStatus) string {
	switch st.Activity() {
	case ahpwire.StatusInputNeeded:
		return "needs you"
	case ahpwire.StatusError:
		return "error"
	case ahpwire.StatusInProgress:
		return "running"
	case ahpwire.StatusIdle:
		return "idle"
	}
	return fmt.Sprint(uint32(st))
}

// redactErr is an error's text, masked.
func redactErr(err error) string { return maskBytes([]byte(err.Error())) }

// runInboxUI shows the inbox (plain `ahptui` with hosts but no default):
// every host is asked in parallel and shown as it answers; the chosen
// session then opens in the normal UI, attached to its host, and "back to
// the sessions" there (ctrl+s) returns to the inbox.
func runInboxUI(cfg config, std stdio, f *cfgfile.File) int {
	for {
		choice, code := showInbox(cfg, std, f)
		if code >= 0 || choice.Session == "" {
			return max(code, exitOK)
		}
		back := false
		c := cfg
		c.hostName, c.openSession, c.backToInbox = choice.Host, choice.Session, &back
		if code := runAttach(c, std); !back {
			return code
		}
	}
}

// showInbox runs the inbox until the user picks a session or quits; code
// is -1 unless the program ended abnormally (a signal, a crash).
func showInbox(cfg config, std stdio, f *cfgfile.File) (tui.InboxChoice, int) {
	names := f.HostNames()
	updates := make(chan tui.InboxHost, 4*len(names))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log, lc, dir, err := setupLog(cfg, cfg.token)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return tui.InboxChoice{}, exitError
	}
	defer lc.Close()
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			send := func(h inboxHost) {
				select {
				case updates <- tui.InboxHost{Name: h.Name, State: h.State, Sessions: h.Sessions}:
				case <-ctx.Done():
				}
			}
			if h := inboxFrom(ctx, cfg, f, n, dir, log.With("host", n), send); h.State != "connected" {
				send(h) // could not connect (a live host sent its state already)
			}
		}()
	}
	go func() { wg.Wait(); close(updates) }()
	p := tea.NewProgram(tui.NewInbox(tui.InboxOptions{Hosts: names, Updates: updates, Dark: isDark(cfg.theme), Notify: cfg.notify}), tea.WithoutSignalHandler())
	final, code := runUI(p, std, log)
	cancel()
	wg.Wait() // the hosts' connections are closed before the chosen one opens
	if code >= 0 {
		return tui.InboxChoice{}, code
	}
	in, _ := final.(tui.Inbox)
	return in.Choice(), -1
}
