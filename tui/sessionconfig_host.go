package tui

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// This file holds the session configuration form's requests to the host
// (resolveSessionConfig, sessionConfigCompletions), each answered by one
// of the form's messages; dialog/sessionconfig.go is the form itself,
// session_create.go routes its messages.

// ConfigBackend is the optional part of the Backend for session
// configuration (*ahpclient.Client implements it).
type ConfigBackend interface {
	ResolveSessionConfig(ctx context.Context, p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error)
	SessionConfigCompletions(ctx context.Context, p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error)
}

// configTimeout bounds resolveSessionConfig and its completions.
const configTimeout = 10 * time.Second

// checkDirCmd re-resolves the session configuration for dir.
func checkDirCmd(ctx context.Context, be app.Backend, m dialog.ConfigDirMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok || m.Dir == "" {
		return nil
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		_, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: m.Provider, WorkingDirectory: dirURI(m.Dir)})
		return dialog.ConfigDirCheckedMsg{Dir: m.Dir, Err: err}
	}
}

// resolveConfigCmd asks the host for the schema of a new session.
func resolveConfigCmd(ctx context.Context, be app.Backend, provider, dir string) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return uikit.Emit(dialog.ConfigResolvedMsg{Provider: provider, Dir: dir, Err: errNoConfig})
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		res, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: provider, WorkingDirectory: dirURI(dir)})
		return dialog.ConfigResolvedMsg{Provider: provider, Dir: dir, Res: res, Err: err}
	}
}

var errNoConfig = signInError("the host has no session configuration")

// dirURI turns a path into a file: URI (URIs pass through; "" stays "").
func dirURI(dir string) string {
	if dir == "" || strings.Contains(dir, "://") {
		return dir
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}

// queryValuesCmd asks the host for the values of one property.
func queryValuesCmd(ctx context.Context, be app.Backend, m dialog.ConfigQueryMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return nil
	}
	p := ahpwire.SessionConfigCompletionsParams{Provider: m.Provider, WorkingDirectory: dirURI(m.Dir), Property: m.Prop, Query: m.Query}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		items, err := cb.SessionConfigCompletions(c, p)
		return dialog.ConfigValuesMsg{Prop: m.Prop, Query: m.Query, Items: items, Err: err}
	}
}

// valueCmds asks the host for the values of every dynamic property of f.
func valueCmds(ctx context.Context, be app.Backend, f *dialog.ConfigForm) tea.Cmd {
	if _, ok := be.(ConfigBackend); !ok {
		return nil
	}
	var cmds []tea.Cmd
	for _, q := range f.ValueQueries() {
		cmds = append(cmds, queryValuesCmd(ctx, be, q))
	}
	return tea.Batch(cmds...)
}

// checkConfigCmd re-resolves the filled form with the host (the host
// checks the working directory) and returns its verdict.
func checkConfigCmd(ctx context.Context, be app.Backend, m dialog.ConfigSubmitMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return uikit.Emit(dialog.ConfigCheckedMsg{Provider: m.Provider, Dir: m.Dir, Values: m.Values})
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		res, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: m.Provider, WorkingDirectory: dirURI(m.Dir), Config: m.Values})
		if err == nil {
			err = res.Schema.CheckConfig(res.Values)
		}
		return dialog.ConfigCheckedMsg{Provider: m.Provider, Dir: m.Dir, Values: res.Values, Err: err}
	}
}
