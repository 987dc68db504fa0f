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
// host by host, each with its state and age, as a script reads them. (The UI's inbox is the session
// picker itself: see hosts.go and tui/model_hosts.go.)

// inboxHostTimeout bounds each host of `sessions --all`: a host that is
// down does not slow the others (they are asked in parallel).
const inboxHostTimeout = 15 * time.Second

// inboxHost is one configured host's part of the inbox.
type inboxHost struct {
	Name string
	// Err is why the host could not be asked ("" when it answered).
	Err      string
	Sessions []inboxSession
}

// inboxSession is one session and its state (inboxstate.go).
type inboxSession struct {
	ahpwire.SessionSummary
	State string
}

// collectInbox asks every configured host for its sessions, in parallel.
func collectInbox(ctx context.Context, cfg config, f *cfgfile.File) []inboxHost {
	names := f.HostsInFileOrder()
	out := make([]inboxHost, len(names))
	log, lc, dir, err := setupLog(cfg, cfg.token)
	if err != nil {
		for i, n := range names {
			out[i] = inboxHost{Name: n, Err: err.Error()}
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

// inboxFrom lists one host's sessions with their states (connecting and
// listing within inboxHostTimeout).
func inboxFrom(ctx context.Context, cfg config, f *cfgfile.File, name, dir string, log *slog.Logger) inboxHost {
	h := inboxHost{Name: name}
	cctx, cancel := context.WithTimeout(ctx, inboxHostTimeout)
	defer cancel()
	t, err := resolveTarget(cctx, cfg, f, name, "")
	if err != nil {
		h.Err = redactErr(err)
		return h
	}
	c, link, _, _, err := dialTarget(cctx, cfg, attachOnly(t), dir, log, false)
	if err != nil {
		h.Err = redactErr(err)
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
			h.Err = redactErr(err)
			return h
		}
		for _, s := range res.Items {
			st := summaryState(s)
			if st == stateNeedsInput {
				st = waitingState(cctx, c, s)
			}
			h.Sessions = append(h.Sessions, inboxSession{SessionSummary: s, State: st})
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	sortInbox(h.Sessions)
	return h
}

// stateRank orders the states by how much they need the user.
var stateRank = map[string]int{stateNeedsApproval: 0, stateNeedsInput: 1, stateError: 2, stateWorking: 3, stateDone: 4}

// sortInbox puts the sessions that need the user first (then unread ones).
func sortInbox(ss []inboxSession) {
	sort.SliceStable(ss, func(i, j int) bool {
		if a, b := stateRank[ss[i].State], stateRank[ss[j].State]; a != b {
			return a < b
		}
		return ss[i].AttentionRank() < ss[j].AttentionRank()
	})
}

// writeInbox prints one row per session (and per unreachable or empty
// host), or NDJSON: a host object, then its sessions.
func writeInbox(w io.Writer, hosts []inboxHost, asJSON bool, now time.Time) {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, h := range hosts {
			host := map[string]any{"type": "host", "host": h.Name, "state": "connected", "sessions": len(h.Sessions)}
			if h.Err != "" {
				host["state"], host["error"] = stateUnreachable, h.Err
			}
			_ = enc.Encode(host)
			for _, s := range h.Sessions {
				row := map[string]any{"type": "session", "host": h.Name, "state": s.State, "session": s.SessionSummary,
					"needsUser": s.NeedsUser(), "unread": !s.Status.Has(ahpwire.StatusIsRead)}
				if t := parseStamp(s.ModifiedAt); !t.IsZero() {
					row["ageSeconds"] = int64(max(now.Sub(t), 0) / time.Second)
				}
				_ = enc.Encode(row)
			}
		}
		return
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSTATE\tAGE\tSESSION\tTITLE")
	for _, h := range hosts {
		switch {
		case h.Err != "":
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t%s\n", h.Name, stateUnreachable, sanitizeLine(h.Err))
		case len(h.Sessions) == 0:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t(no sessions)\n", h.Name)
		}
		for _, s := range h.Sessions {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.Name, s.State, ageText(now, parseStamp(s.ModifiedAt)),
				sanitizeLine(s.Resource), sanitizeLine(s.Title)) // the full URI, as exec --session takes it
		}
	}
	_ = tw.Flush()
}

// redactErr is an error's text, masked.
func redactErr(err error) string { return maskBytes([]byte(err.Error())) }
