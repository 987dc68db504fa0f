package tui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
)

// onNewSession prepares a new session: the session config form when the
// host resolves configurations, else the session at once.
func (m *Model) onNewSession(msg picker.NewSessionMsg) tea.Cmd {
	m.retryCreate = false
	b := m.c.Backend
	if _, ok := b.(ConfigBackend); ok {
		m.picker.Status = "loading session options…"
		return resolveConfigCmd(m.c.Ctx, b, msg.Provider, m.defaultDir())
	}
	if b == nil {
		return m.setNotice("no host is connected yet", true)
	}
	uri := "ahp-session:/" + m.c.NewID()
	m.open = &opening{session: uri, created: true}
	m.picker.Status = "creating session…"
	return app.CreateSession(m.c.Ctx, b, uri, msg.Provider, m.c.Dir)
}

// onConfigForm handles the messages of the new-session form
// (dialog/sessionconfig.go draws it, sessionconfig_host.go asks the host).
func (m *Model) onConfigForm(msg tea.Msg) tea.Cmd {
	b := m.c.Backend
	switch msg := msg.(type) {
	case dialog.ConfigAgentMsg:
		return resolveConfigCmd(m.c.Ctx, b, msg.Provider, msg.Dir)
	case dialog.ConfigResolvedMsg:
		m.picker.Status = ""
		if f := m.topConfigForm(); f != nil && !f.Settings() {
			// The form's agent changed: the new agent's form replaces it
			// (without options when the host has none for it).
			if msg.Err != nil {
				msg.Res = ahpwire.ResolveSessionConfigResult{}
			}
			m.overlays = m.overlays[:len(m.overlays)-1]
		} else if msg.Err != nil {
			// No form: create the session as before.
			m.c.Log.Info("no session configuration", "err", msg.Err)
			return m.createWith(msg.Provider, m.c.Dir, nil)
		}
		f := dialog.NewConfigForm(m.c.KM.Form, msg, &m.c.Styles)
		f.WithAgents(m.picker.Agents)
		m.overlays = append(m.overlays, f)
		return valueCmds(m.c.Ctx, b, f)
	case dialog.ConfigValuesMsg:
		if f := m.topConfigForm(); f != nil {
			f.SetValues(msg)
		}
	case dialog.ConfigQueryMsg:
		return queryValuesCmd(m.c.Ctx, b, msg)
	case dialog.ConfigDirMsg:
		return checkDirCmd(m.c.Ctx, b, msg)
	case dialog.ConfigDirCheckedMsg:
		if f := m.topConfigForm(); f != nil {
			f.DirChecked(msg, app.ErrText(msg.Err))
		}
	case dialog.ConfigSubmitMsg:
		return checkConfigCmd(m.c.Ctx, b, msg)
	case dialog.ConfigCheckedMsg:
		f := m.topConfigForm()
		if f == nil {
			return nil
		}
		if msg.Err != nil {
			f.Refused(app.ErrText(msg.Err))
			return nil
		}
		m.overlays = m.overlays[:len(m.overlays)-1]
		return m.createWith(msg.Provider, dirURI(msg.Dir), msg.Values)
	}
	return nil
}

// onSessionCreated: a session the host wants a sign-in for first opens the
// sign-in prompt (and is created again once signed in); another failure
// is a notice; a created session opens with its snapshot.
func (m *Model) onSessionCreated(msg app.SessionCreatedMsg) tea.Cmd {
	if res, ok := authRequiredOf(msg.Err); ok {
		return m.signInToCreate(res) // signin_flow.go
	}
	if msg.Err != nil {
		m.open = nil
		m.picker.Status = ""
		return m.errNotice("could not create the session", msg.Err)
	}
	return nil
}

// defaultDir is the working directory a new session is offered.
func (m *Model) defaultDir() string {
	if m.c.Dir != "" {
		return m.c.Dir
	}
	if fs, ok := m.c.Backend.(chat.FeatureSource); ok {
		return dialog.DirPath(fs.HostFeatures().DefaultDirectory)
	}
	return ""
}

// createRequest is what a createSession asked for.
type createRequest struct {
	provider, dir string
	config        map[string]json.RawMessage
}

// createWith creates a session with a working directory and config.
func (m *Model) createWith(provider, dir string, config map[string]json.RawMessage) tea.Cmd {
	m.lastCreate = &createRequest{provider: provider, dir: dir, config: config}
	uri := "ahp-session:/" + m.c.NewID()
	m.open = &opening{session: uri, created: true}
	m.picker.Status = "creating session…"
	ctx, b := m.c.Ctx, m.c.Backend
	return func() tea.Msg {
		ctx, cancel := app.ReqCtx(ctx)
		defer cancel()
		p := ahpwire.CreateSessionParams{Channel: uri, Provider: provider, Config: config}
		if dir != "" {
			p.WorkingDirectories = []string{dirURI(dir)}
		}
		if err := b.CreateSession(ctx, p); err != nil {
			return app.SessionCreatedMsg{Session: uri, Err: fmt.Errorf("create session: %w", err)}
		}
		if _, err := b.Subscribe(ctx, uri, nil); err != nil {
			return app.SessionCreatedMsg{Session: uri, Err: fmt.Errorf("subscribe to new session: %w", err)}
		}
		return app.SessionCreatedMsg{Session: uri}
	}
}

// topConfigForm is the session config form when it is the top overlay.
func (m *Model) topConfigForm() *dialog.ConfigForm {
	if n := len(m.overlays); n > 0 {
		f, _ := m.overlays[n-1].(*dialog.ConfigForm)
		return f
	}
	return nil
}
