package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// Paging bounds for sessions and export.
const (
	sessionsPage = 100
	maxPages     = 1000
)

// parseSub parses a subcommand's flags around positional arguments; an
// optional URL or @name may come first.
func parseSub(fs *flag.FlagSet, args []string) (name, rawURL string, positional []string, err error) {
	fs.SetOutput(io.Discard)
	name, rawURL, args = splitTarget(args)
	for {
		if err := fs.Parse(args); err != nil {
			return "", "", nil, err //nolint:wrapcheck // flag.ErrHelp is checked by the caller
		}
		args = fs.Args()
		if len(args) == 0 {
			return name, rawURL, positional, nil
		}
		if len(positional) == 0 && name == "" && rawURL == "" {
			if n, u, rest := splitTarget(args); n != "" || u != "" {
				name, rawURL, args = n, u, rest
				continue
			}
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// runSessions implements `ahptui sessions [URL|@NAME] [--json]`.
func runSessions(cfg config, std stdio) int {
	fs := flag.NewFlagSet("ahptui sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	allHosts := fs.Bool("all", false, "")
	name, rawURL, pos, err := parseSub(fs, cfg.subArgs)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(std.out, sessionsUsage)
		return exitOK
	}
	if err == nil && len(pos) > 0 {
		err = usagef("unexpected argument %q", pos[0])
	}
	if err == nil && *allHosts && (name != "" || rawURL != "") {
		err = usagef("--all lists every configured host: give no URL or @name")
	}
	if err != nil {
		printErr(std.err, "ahptui: sessions: %v\n", err)
		return exitUsage
	}
	ctx, caught, stop := watchSignals(context.Background())
	defer stop()
	if *allHosts {
		return runInbox(ctx, cfg, std, *asJSON)
	}
	h, code := connectHeadless(ctx, cfg, std, name, rawURL)
	if h == nil {
		return code
	}
	defer h.close()
	var all []ahpwire.SessionSummary
	cursor := ""
	for page := 0; page < maxPages; page++ {
		res, err := h.c.ListSessions(ctx, sessionsPage, cursor)
		if err != nil {
			if sig := caught(); sig != nil {
				return signalExitCode(sig)
			}
			printErr(std.err, "ahptui: sessions: %v\n", err)
			return exitError
		}
		all = append(all, res.Items...)
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	if *asJSON {
		writeSessionsJSON(std.out, all) // status as names (sessionsjson.go)
		return exitOK
	}
	// Newest first by the time the table shows: a host answers in the
	// order of its last summary change (an archived old session comes
	// first), which a restart changes.
	slices.SortStableFunc(all, func(a, b ahpwire.SessionSummary) int {
		return parseStamp(b.ModifiedAt).Compare(parseStamp(a.ModifiedAt))
	})
	tw := tabwriter.NewWriter(std.out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tMODIFIED\tTITLE")
	for _, s := range all {
		title := sanitizeLine(s.Title)
		if s.Status&ahpwire.StatusIsArchived != 0 {
			title += " [archived]" // as the TUI's session list marks it
		}
		// The full URI: hosts of other dialects publish <provider>:/<id>,
		// and exec --session and export take it back unchanged.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", sanitizeLine(s.Resource),
			s.Status.ActivityName(), sanitizeLine(fmt.Sprint(s.ModifiedAt)), title)
	}
	_ = tw.Flush()
	return exitOK
}

// sessionsUsage is `ahptui sessions --help`.
const sessionsUsage = `usage: ahptui sessions [URL|@NAME] [--json]
       ahptui sessions --all [--json]

Lists the host's sessions, the last changed first: id, status, last change,
title (archived sessions end in [archived]; --json: one JSON object per
line, in the host's order). --all asks every host of the config file at once (a host
that is down does not slow the others; each has its own timeout) and prints
one row per session: the host's name, the session's state, its age (since
its last change), the session and its title. States: needs-approval,
needs-input, error, working, done; the sessions that need you come first in
each host. A host that could not be asked is a row of its own, state
unreachable, with the error. Exit status: 0 when every host answered, 3
when any did not (its rows say why).
`

// runInbox implements `ahptui sessions --all`: exit 0 when every host
// answered, 3 when any did not.
func runInbox(ctx context.Context, cfg config, std stdio, asJSON bool) int {
	f, ok := readConfig(&cfg, std, false)
	if !ok {
		return exitUsage
	}
	if len(f.Hosts) == 0 {
		printErr(std.err, "ahptui: sessions --all: the config file names no hosts (ahptui config edit)\n")
		return exitUsage
	}
	hosts := collectInbox(ctx, cfg, f)
	writeInbox(std.out, hosts, asJSON, time.Now())
	code := exitOK
	for _, h := range hosts {
		if h.Err != "" {
			code = exitConnect
		}
	}
	return code
}

// runExport implements `ahptui export [URL|@NAME] SESSION [--format md|json]`.
func runExport(cfg config, std stdio) int {
	fs := flag.NewFlagSet("ahptui export", flag.ContinueOnError)
	format := fs.String("format", "md", "")
	name, rawURL, pos, err := parseSub(fs, cfg.subArgs)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(std.out, "usage: ahptui export [URL|@NAME] SESSION [--format md|json]\n\nPrints the session's whole chat (every turn, paged from the host), sanitised:\nmarkdown, or the chat state as JSON.\n")
		return exitOK
	}
	switch {
	case err != nil:
	case len(pos) != 1:
		err = usagef("export needs exactly one SESSION")
	case *format != "md" && *format != "json":
		err = usagef("--format must be md or json, not %q", *format)
	}
	if err != nil {
		printErr(std.err, "ahptui: export: %v\n", err)
		return exitUsage
	}
	ctx, caught, stop := watchSignals(context.Background())
	defer stop()
	h, code := connectHeadless(ctx, cfg, std, name, rawURL)
	if h == nil {
		return code
	}
	defer h.close()
	st, err := loadWholeChat(ctx, h, sessionURI(pos[0]))
	if err != nil {
		if sig := caught(); sig != nil {
			return signalExitCode(sig)
		}
		printErr(std.err, "ahptui: export: %v\n", err)
		return exitError
	}
	if *format == "json" {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		_ = enc.Encode(st)
		return exitOK
	}
	if ss := h.d.session(sessionURI(pos[0])); ss.Title != "" {
		st.Title = ss.Title // the session's title, not the default chat's ("Chat")
	}
	read := func(uri string) (text string, err error) {
		err = h.d.await(ctx, func(ctx context.Context) error {
			text, err = readTextRef(ctx, h, uri)
			return err
		})
		return text, err
	}
	_, _ = io.WriteString(std.out, turnsMarkdown(st.Title, st.Resource, inlinePages(chatTurns(st), read)))
	return exitOK
}

// loadWholeChat subscribes to the session's default chat and fetches older
// turns until the host has none left.
func loadWholeChat(ctx context.Context, h *headless, session string) (ahpwire.ChatState, error) {
	d := h.d
	if err := d.subscribeSession(ctx, session); err != nil {
		return ahpwire.ChatState{}, err
	}
	chat, err := d.waitChat(ctx, session)
	if err != nil {
		return ahpwire.ChatState{}, err
	}
	if err := d.subscribeChat(ctx, chat); err != nil {
		return ahpwire.ChatState{}, err
	}
	for page := 0; page < maxPages; page++ {
		cursor := d.chat(chat).TurnsNextCursor
		if cursor == "" {
			break
		}
		if err := h.c.FetchTurns(ctx, chat, cursor); err != nil {
			return ahpwire.ChatState{}, fmt.Errorf("fetch older turns: %w", err)
		}
		for d.chat(chat).TurnsNextCursor == cursor {
			if _, _, err := d.next(ctx); err != nil {
				return ahpwire.ChatState{}, err
			}
		}
	}
	return d.chat(chat), nil
}

// chatTurns is the chat's turns, its running turn last (as far as it has
// come, marked running).
func chatTurns(st ahpwire.ChatState) []ahpwire.Turn {
	turns := st.Turns
	if at := st.ActiveTurn; at != nil {
		turns = append(turns[:len(turns):len(turns)], ahpwire.Turn{ID: at.ID, Message: at.Message, ResponseParts: at.ResponseParts.Slice(), State: "running"})
	}
	return turns
}

// turnsMarkdown renders a chat's turns as markdown, titled title (else
// resource): every turn's message and answer, tool calls as one line
// each, a turn that did not complete marked with its state; all server
// text sanitised. contentRef parts (a long reply's pages) are left out:
// export reads them into the text first (inlinePages).
func turnsMarkdown(title, resource string, turns []ahpwire.Turn) string {
	var b strings.Builder
	if title == "" {
		title = resource
	}
	fmt.Fprintf(&b, "# %s\n", sanitizeLine(title))
	for _, t := range turns {
		fmt.Fprintf(&b, "\n## You\n\n%s\n\n## Agent\n\n", strings.TrimSpace(render.Sanitize(t.Message.Text)))
		for _, p := range t.ResponseParts {
			switch p.Kind {
			case ahpwire.PartMarkdown:
				b.WriteString(render.Sanitize(p.Content))
				if !strings.HasSuffix(p.Content, "\n") {
					b.WriteString("\n")
				}
			case ahpwire.PartToolCall:
				if p.ToolCall != nil {
					fmt.Fprintf(&b, "\n> tool %s: %s\n\n", sanitizeLine(p.ToolCall.DisplayName), sanitizeLine(render.ToolOutcome(p.ToolCall)))
				}
			case ahpwire.PartError: // an interrupted turn's mark, an agent's failure
				if p.Error != nil && t.Error == nil {
					fmt.Fprintf(&b, "\n> error: %s\n", sanitizeLine(p.Error.Message))
				}
			}
		}
		if t.Error != nil {
			fmt.Fprintf(&b, "\n> error: %s\n", sanitizeLine(t.Error.Message))
		}
		if t.State != "" && t.State != "complete" {
			fmt.Fprintf(&b, "\n_(%s)_\n", sanitizeLine(t.State))
		}
	}
	return b.String()
}
