package tui

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// This file holds the session configuration form's requests to the host
// (resolveSessionConfig, sessionConfigCompletions) and the messages that
// carry their answers; sessionconfig.go is the form itself.

// ConfigBackend is the optional part of the Backend for session
// configuration (*ahpclient.Client implements it).
type ConfigBackend interface {
	ResolveSessionConfig(ctx context.Context, p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error)
	SessionConfigCompletions(ctx context.Context, p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error)
}

// configTimeout bounds resolveSessionConfig and its completions.
const configTimeout = 10 * time.Second

// configDirMsg asks the root to re-resolve the draft for a new working
// directory; configDirCheckedMsg is the host's answer.
type (
	configDirMsg struct {
		provider, dir string
	}
	configDirCheckedMsg struct {
		dir string
		err error
	}
)

// checkDirCmd re-resolves the session configuration for dir.
func checkDirCmd(ctx context.Context, be Backend, m configDirMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok || m.dir == "" {
		return nil
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		_, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: m.provider, WorkingDirectory: dirURI(m.dir)})
		return configDirCheckedMsg{dir: m.dir, err: err}
	}
}

// resolveConfigCmd asks the host for the schema of a new session.
func resolveConfigCmd(ctx context.Context, be Backend, provider, dir string) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return emit(configResolvedMsg{provider: provider, dir: dir, err: errNoConfig})
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		res, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: provider, WorkingDirectory: dirURI(dir)})
		return configResolvedMsg{provider: provider, dir: dir, res: res, err: err}
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

// dirPath shows a file: URI as a path.
func dirPath(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return uri
}

// configQueryMsg asks the root for a dynamic property's values matching query.
type configQueryMsg struct {
	provider, dir, prop, query string
}

// queryValuesCmd asks the host for the values of one property.
func queryValuesCmd(ctx context.Context, be Backend, m configQueryMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return nil
	}
	p := ahpwire.SessionConfigCompletionsParams{Provider: m.provider, WorkingDirectory: dirURI(m.dir), Property: m.prop, Query: m.query}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		items, err := cb.SessionConfigCompletions(c, p)
		return configValuesMsg{prop: m.prop, query: m.query, items: items, err: err}
	}
}

// configSubmitMsg asks the root to check the values with the host and
// create the session.
type configSubmitMsg struct {
	provider string
	dir      string
	values   map[string]json.RawMessage
}

// checkConfigCmd re-resolves the filled form with the host (the host
// checks the working directory) and returns its verdict.
func checkConfigCmd(ctx context.Context, be Backend, m configSubmitMsg) tea.Cmd {
	cb, ok := be.(ConfigBackend)
	if !ok {
		return emit(configCheckedMsg{provider: m.provider, dir: m.dir, values: m.values})
	}
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, configTimeout)
		defer cancel()
		res, err := cb.ResolveSessionConfig(c, ahpwire.ResolveSessionConfigParams{Provider: m.provider, WorkingDirectory: dirURI(m.dir), Config: m.values})
		if err == nil {
			err = res.Schema.CheckConfig(res.Values)
		}
		return configCheckedMsg{provider: m.provider, dir: m.dir, values: res.Values, err: err}
	}
}
