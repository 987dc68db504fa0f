package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// The inbox of `ahptui sessions --all`: every configured host's sessions,
// grouped by host, as a script reads them. (The UI's inbox is the session
// picker itself: see hosts.go and tui/model_hosts.go.)

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
	names := f.HostsInFileOrder()
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
			out[i] = inboxFrom(ctx, cfg, f, n, dir, log.With("host", n))
		}()
	}
	wg.Wait()
	return out
}

// inboxFrom lists one host's sessions (connecting and listing within
// inboxHostTimeout).
func inboxFrom(ctx context.Context, cfg config, f *cfgfile.File, name, dir string, log *slog.Logger) inboxHost {
	h := inboxHost{Name: name}
	cctx, cancel := context.WithTimeout(ctx, inboxHostTimeout)
	defer cancel()
	t, err := resolveTarget(cctx, cfg, f, name, "")
	if err != nil {
		h.State = redactErr(err)
		return h
	}
	c, link, _, _, err := dialTarget(cctx, cfg, attachOnly(t), dir, log, false)
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
	return h
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", mark, sanitizeLine(s.Resource), // the full URI, as exec --session takes it
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
