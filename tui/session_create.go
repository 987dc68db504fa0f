package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// handleSteer handles the messages of the completion, session-config,
// sign-in, rename/archive and subagent features; ok reports whether msg
// was one of them.
func (m *Model) handleSteer(msg tea.Msg) (tea.Cmd, bool) {
	b := m.c.backend
	switch msg := msg.(type) {
	case completionDueMsg, completionResultMsg, exportDoneMsg, searchFoundMsg:
		if m.chat != nil {
			cmd, _ := m.chat.steerMsg(msg)
			return cmd, true
		}
		return nil, true
	case turnsFetchedMsg:
		if m.chat != nil {
			return m.chat.steerMsg(msg)
		}
		return nil, false
	case newSessionMsg:
		m.retryCreate = false
		if _, ok := b.(ConfigBackend); !ok {
			return nil, false
		}
		m.picker.status = "loading session options…"
		return resolveConfigCmd(m.c.ctx, b, msg.Provider, m.defaultDir()), true
	case configAgentMsg:
		return resolveConfigCmd(m.c.ctx, b, msg.provider, msg.dir), true
	case configResolvedMsg:
		m.picker.status = ""
		if f := m.topConfigForm(); f != nil && !f.settings {
			// The form's agent changed: the new agent's form replaces it
			// (without options when the host has none for it).
			if msg.err != nil {
				msg.res = ahpwire.ResolveSessionConfigResult{}
			}
			m.overlays = m.overlays[:len(m.overlays)-1]
		} else if msg.err != nil {
			// No form: create the session as before.
			m.c.log.Info("no session configuration", "err", msg.err)
			return m.createWith(msg.provider, m.c.dir, nil), true
		}
		f := newConfigForm(m.c.km.Form, msg, &m.c.styles)
		f.withAgents(m.picker.agents)
		m.overlays = append(m.overlays, f)
		return f.valueCmds(m.c.ctx, b), true
	case configValuesMsg:
		if f := m.topConfigForm(); f != nil {
			f.setValues(msg)
		}
		return nil, true
	case configQueryMsg:
		return queryValuesCmd(m.c.ctx, b, msg), true
	case configDirMsg:
		return checkDirCmd(m.c.ctx, b, msg), true
	case configDirCheckedMsg:
		if f := m.topConfigForm(); f != nil {
			f.dirChecked(msg)
		}
		return nil, true
	case configSubmitMsg:
		return checkConfigCmd(m.c.ctx, b, msg), true
	case configCheckedMsg:
		f := m.topConfigForm()
		if f == nil {
			return nil, true
		}
		if msg.err != nil {
			f.checking, f.err = false, errText(msg.err)
			return nil, true
		}
		m.overlays = m.overlays[:len(m.overlays)-1]
		return m.createWith(msg.provider, dirURI(msg.dir), msg.values), true
	case openSettingsMsg:
		if m.session == nil || m.chat == nil {
			return nil, true
		}
		f := newSettingsForm(m.c.km.Form, m.session.Config, &m.c.styles)
		if f == nil {
			return m.setNotice("this session has no settings that can change", false), true
		}
		m.overlays = append(m.overlays, f)
		return f.valueCmds(m.c.ctx, b), true
	case configChangeMsg:
		if m.session == nil || m.chat == nil || m.session.Config == nil {
			return nil, true
		}
		changed := map[string]json.RawMessage{}
		for k, v := range msg.values {
			if string(m.session.Config.Values[k]) != string(v) {
				changed[k] = v
			}
		}
		if len(changed) == 0 {
			return nil, true
		}
		return dispatch(m.c.ctx, b, m.chat.session, &ahpwire.SessionConfigChanged{Config: changed}, "change session settings"), true
	case authSignInMsg:
		res := msg.resource
		if known := m.resourceMeta(res.Resource); known.ResourceName != "" || len(known.AuthorizationServers) > 0 {
			res = known // the agent's declaration is the fuller one
		}
		m.overlays = append(m.overlays, newSignInPrompt(m.c.km.SignIn, res, &m.c.styles))
		return nil, true
	case authenticateMsg:
		return tea.Batch(authenticateCmd(m.c.ctx, b, msg), m.setNotice("signing in to "+msg.name+"…", false)), true
	case authenticatedMsg:
		if msg.err != nil {
			m.retryCreate = false
			return m.setNotice("sign-in to "+msg.name+" failed: "+errText(msg.err), true), true
		}
		cmd := m.setNotice("signed in to "+msg.name, false)
		if m.retryCreate && m.lastCreate != nil {
			// The host refused createSession until signed in: retry it.
			m.retryCreate = false
			r := m.lastCreate
			cmd = tea.Batch(cmd, m.createWith(r.provider, r.dir, r.config))
		}
		return cmd, true
	case sessionCreatedMsg:
		res, ok := authRequiredOf(msg.err)
		if !ok {
			return nil, false
		}
		m.open, m.picker.status = nil, ""
		meta := ahpwire.ProtectedResourceMetadata{}
		if len(res) > 0 {
			meta = res[0]
		}
		if known := m.resourceMeta(meta.Resource); known.ResourceName != "" {
			meta = known
		}
		m.retryCreate = true
		m.overlays = append(m.overlays, newSignInPrompt(m.c.km.SignIn, meta, &m.c.styles))
		return m.setNotice("the host wants you to sign in to "+resourceName(meta)+" first", false), true
	case renameRequestMsg:
		m.overlays = append(m.overlays, newRenamePrompt(m.c.km.SignIn, msg.Session, msg.Title, &m.c.styles))
		return nil, true
	case sessionActionMsg:
		return m.sessionAction(msg), true
	case openChildMsg:
		if m.chat == nil {
			return nil, true
		}
		session, old := m.chat.session, m.chat.chat
		cmd := m.openChat(session, msg.chat)
		if msg.parent != "" {
			m.chat.x.parent = msg.parent
		}
		return tea.Batch(unsubscribe(m.c.ctx, b, old), cmd), true
	}
	return nil, false
}

// defaultDir is the working directory a new session is offered.
func (m *Model) defaultDir() string {
	if m.c.dir != "" {
		return m.c.dir
	}
	if fs, ok := m.c.backend.(featureSource); ok {
		return dirPath(fs.HostFeatures().DefaultDirectory)
	}
	return ""
}

// createRequest is what a createSession asked for.
type createRequest struct {
	provider, dir string
	config        map[string]json.RawMessage
}

// authRequiredOf returns the resources of an AuthRequired (-32007) error
// (data {resources} or, in older hosts, a bare array); ok is false for
// other errors.
func authRequiredOf(err error) (res []ahpwire.ProtectedResourceMetadata, ok bool) {
	var re *ahpwire.RPCError
	if !errors.As(err, &re) || re.Code != ahpwire.CodeAuthRequired {
		return nil, false
	}
	var d ahpwire.AuthRequiredData
	if json.Unmarshal(re.Data, &d) != nil || len(d.Resources) == 0 {
		_ = json.Unmarshal(re.Data, &res)
		return res, true
	}
	return d.Resources, true
}

// createWith creates a session with a working directory and config.
func (m *Model) createWith(provider, dir string, config map[string]json.RawMessage) tea.Cmd {
	m.lastCreate = &createRequest{provider: provider, dir: dir, config: config}
	uri := "ahp-session:/" + m.c.newID()
	m.open = &opening{session: uri, created: true}
	m.picker.status = "creating session…"
	ctx, b := m.c.ctx, m.c.backend
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		p := ahpwire.CreateSessionParams{Channel: uri, Provider: provider, Config: config}
		if dir != "" {
			p.WorkingDirectories = []string{dirURI(dir)}
		}
		if err := b.CreateSession(ctx, p); err != nil {
			return sessionCreatedMsg{session: uri, err: fmt.Errorf("create session: %w", err)}
		}
		if _, err := b.Subscribe(ctx, uri, nil); err != nil {
			return sessionCreatedMsg{session: uri, err: fmt.Errorf("subscribe to new session: %w", err)}
		}
		return sessionCreatedMsg{session: uri}
	}
}

func (m *Model) topConfigForm() *configForm {
	if n := len(m.overlays); n > 0 {
		f, _ := m.overlays[n-1].(*configForm)
		return f
	}
	return nil
}

// resourceMeta finds a protected resource's metadata among the agents.
func (m *Model) resourceMeta(resource string) ahpwire.ProtectedResourceMetadata {
	for _, a := range m.picker.agents {
		for _, r := range a.ProtectedResources {
			if r.Resource == resource {
				return r
			}
		}
	}
	return ahpwire.ProtectedResourceMetadata{Resource: resource}
}

// onAuthRequired answers auth/required: the sign-in prompt opens unless a
// prompt is already in front (the tool call's notice offers it too).
func (m *Model) onAuthRequired(raw json.RawMessage) tea.Cmd {
	var p ahpwire.AuthRequiredParams
	if json.Unmarshal(raw, &p) != nil || p.Resource.Resource == "" {
		return nil
	}
	name := resourceName(p.Resource)
	if n := len(m.overlays); n > 0 {
		if sp, ok := m.overlays[n-1].(*signInPrompt); ok {
			sp.add(p.Resource) // another way to sign in to the same agent, or another resource
			return nil
		}
		return m.setNotice("sign-in needed for "+name+" — "+m.c.km.Auth.SignIn.Help().Key+" in the prompt signs in", false)
	}
	m.overlays = append(m.overlays, newSignInPrompt(m.c.km.SignIn, p.Resource, &m.c.styles))
	return nil
}

// sessionAction subscribes to a session (so the echo settles the send)
// and dispatches a session action on it.
func (m *Model) sessionAction(msg sessionActionMsg) tea.Cmd {
	ctx, b := m.c.ctx, m.c.backend
	return func() tea.Msg {
		c, cancel := reqCtx(ctx)
		defer cancel()
		if _, err := b.Subscribe(c, msg.Session, nil); err != nil {
			return dispatchedMsg{channel: msg.Session, what: msg.What, err: fmt.Errorf("%s: %w", msg.What, err)}
		}
		seq, err := b.Dispatch(c, msg.Session, msg.Action)
		if err != nil {
			err = fmt.Errorf("%s: %w", msg.What, err)
		}
		return dispatchedMsg{channel: msg.Session, clientSeq: seq, what: msg.What, err: err}
	}
}

// markRead marks the session read when it is opened.
func (m *Model) markRead(session string) tea.Cmd {
	s, ok := m.picker.Session(session)
	if !ok || s.Status.Has(ahpwire.StatusIsRead) {
		return nil
	}
	return dispatch(m.c.ctx, m.c.backend, session, &ahpwire.SessionIsReadChanged{IsRead: true}, "mark read")
}

// authSignInMsg asks the root to open the sign-in prompt for a resource.
type authSignInMsg struct {
	resource ahpwire.ProtectedResourceMetadata
}

// renamePrompt asks for a session's new title.
type renamePrompt struct {
	km      keymap.SignIn
	session string
	in      textinput.Model
	err     string
}

func newRenamePrompt(km keymap.SignIn, session, title string, st *Styles) *renamePrompt {
	in := newTextInput(st)
	in.Prompt = "title › "
	in.CharLimit = 200
	in.SetValue(render.Sanitize(title))
	in.CursorEnd()
	in.Focus()
	return &renamePrompt{km: km, session: session, in: in}
}

// Update: enter renames (session/titleChanged), esc cancels.
func (r *renamePrompt) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, r.km.Cancel):
			return r, nil, resultClose
		case key.Matches(k, r.km.Submit):
			t := strings.TrimSpace(r.in.Value())
			if t == "" {
				r.err = "A title cannot be empty."
				return r, nil, resultNone
			}
			return r, emit(sessionActionMsg{Session: r.session, Action: &ahpwire.SessionTitleChanged{Title: t}, What: "rename session"}), resultClose
		}
	}
	var cmd tea.Cmd
	r.in, cmd = r.in.Update(msg)
	return r, cmd, resultNone
}

// View draws the prompt.
func (r *renamePrompt) View(st *Styles, width, height int) string {
	inner := max(24, min(width, 70)-4)
	lines := []string{st.Dialog.Title.Render("Rename session"), "", r.in.View()}
	if r.err != "" {
		lines = append(lines, st.Dialog.Error.Render(r.err))
	}
	lines = append(lines, "")
	lines = append(lines, keyHints(st, inner, r.km.Submit.Help().Key, "rename", r.km.Cancel.Help().Key, "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
