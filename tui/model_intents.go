package tui

import (
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// handleIntent turns a child's intent into commands.
func (m *Model) handleIntent(msg tea.Msg) (tea.Cmd, bool) {
	b := m.c.backend
	switch msg := msg.(type) {
	case openSessionMsg:
		m.open = &opening{session: msg.Session}
		m.picker.status = "opening…"
		return subscribe(m.c.ctx, b, msg.Session, 0), true
	case newSessionMsg:
		uri := "ahp-session:/" + m.c.newID()
		m.open = &opening{session: uri, created: true}
		m.picker.status = "creating session…"
		return createSession(m.c.ctx, b, uri, msg.Provider, m.c.dir), true
	case openChatMsg:
		return m.openChat(msg.Session, msg.Chat), true
	case disposeRequestMsg:
		m.overlays = append(m.overlays, newConfirm(m.c.km.Confirm,
			fmt.Sprintf("Dispose session %q? This deletes it on the host.", msg.Title), disposeConfirmedMsg{session: msg.Session}))
		return nil, true
	case disposeConfirmedMsg:
		return disposeSession(m.c.ctx, b, msg.session), true
	case refreshSessionsMsg:
		return listSessions(m.c.ctx, b), true
	case backToPickerMsg:
		return m.leaveChat(), true
	case openPromptMsg:
		if !m.openFirstPending(true) {
			return m.setNotice("nothing is waiting for you", false), true
		}
		return nil, true
	case toolDecisionMsg:
		return m.decideTool(msg), true
	case inputDecisionMsg:
		return m.decideInput(msg), true
	case authGiveUpMsg:
		return m.giveUpAuth(msg), true
	}
	return nil, false
}

// handleResult handles command results.
func (m *Model) handleResult(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case sessionsListedMsg:
		return m.handleEvent(msg.ev), true
	case sessionCreatedMsg:
		if msg.err != nil {
			m.open = nil
			m.picker.status = ""
			return m.setNotice(msg.err.Error(), true), true
		}
		return nil, true
	case subscribedMsg:
		if msg.err == nil {
			return nil, true
		}
		if m.open != nil && m.open.session == msg.channel {
			m.open = nil
			m.picker.status = ""
		}
		return m.setNotice(msg.err.Error(), true), true
	case sessionDisposedMsg:
		if msg.err != nil {
			return m.setNotice(msg.err.Error(), true), true
		}
		m.picker.Remove(msg.session)
		return m.setNotice("session disposed", false), true
	case dispatchedMsg:
		if msg.err != nil {
			return m.setNotice(msg.err.Error(), true), true
		}
		return nil, true
	}
	return nil, false
}

// openChat switches to the chat screen and subscribes to the chat.
func (m *Model) openChat(session, chat string) tea.Cmd {
	title := ""
	if s, ok := m.picker.Session(session); ok {
		title = s.Title
	}
	if m.session != nil && m.session.Title != "" {
		title = m.session.Title
	}
	m.open = nil
	m.picker.status = ""
	m.chat = newChat(m.c, m.conn, session, chat, title)
	m.chat.SetSize(m.width, m.bodyHeight())
	m.screen = screenChat
	m.prompted = map[string]bool{}
	return tea.Batch(subscribe(m.c.ctx, m.c.backend, chat, m.c.turns), m.chat.comp.Focus())
}

// leaveChat returns to the picker and drops the chat's subscriptions.
func (m *Model) leaveChat() tea.Cmd {
	if m.chat == nil {
		m.screen = screenPicker
		return nil
	}
	cmd := unsubscribe(m.c.ctx, m.c.backend, m.chat.chat, m.chat.session)
	m.picker.Select(m.chat.session)
	m.chat, m.session, m.screen = nil, nil, screenPicker
	m.overlays = nil
	return tea.Batch(cmd, listSessions(m.c.ctx, m.c.backend), m.picker.filter.Focus())
}

// decideTool dispatches an approval decision.
func (m *Model) decideTool(d toolDecisionMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	var a ahpwire.Action
	if d.Result {
		a = &ahpwire.ChatToolCallResultConfirmed{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Approved: d.Approved}
	} else {
		c := &ahpwire.ChatToolCallConfirmed{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Approved: d.Approved}
		if d.Approved {
			c.Confirmed = ahpwire.ConfirmedUserAction
		} else {
			c.Reason = ahpwire.CancelDenied
			if d.Reason != "" {
				c.ReasonMessage = ahpwire.PlainPtr(d.Reason)
			}
		}
		if d.Option != nil {
			c.SelectedOptionID = d.Option.ID
		}
		a = c
	}
	what := "deny tool"
	if d.Approved {
		what = "approve tool"
	}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, what)
}

// giveUpAuth fails an auth-required tool call (allowed for any client).
func (m *Model) giveUpAuth(d authGiveUpMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatToolCallComplete{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Result: ahpwire.ToolCallResult{
		Success:          false,
		PastTenseMessage: ahpwire.Plain(d.Name + " was given up: authentication is not available in ahptui"),
		Error:            &ahpwire.ToolError{Message: authGiveUpMessage, Code: "auth-unavailable"},
	}}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, "give up tool call")
}

// decideInput dispatches the answer to an input request.
func (m *Model) decideInput(d inputDecisionMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatInputCompleted{RequestID: d.RequestID, Response: d.Response}
	if len(d.Answers) > 0 {
		a.Answers = make(map[string]ahpwire.ChatInputAnswer, len(d.Answers))
		for id, ans := range d.Answers {
			a.Answers[id] = wireAnswer(ans)
		}
	}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, "answer question")
}

// wireAnswer converts a form answer to the wire shape.
func wireAnswer(a reducer.InputAnswer) ahpwire.ChatInputAnswer {
	out := ahpwire.ChatInputAnswer{State: a.State}
	if a.State == reducer.AnswerSkipped {
		out.FreeformValues = a.Freeform
		return out
	}
	var v ahpwire.ChatInputAnswerValue
	switch a.Kind {
	case reducer.AnswerNumber:
		v = ahpwire.NumberAnswer(a.Number)
	case reducer.AnswerBoolean:
		v = ahpwire.BoolAnswer(a.Bool)
	case reducer.AnswerSelected:
		id := ""
		if len(a.Selected) > 0 {
			id = a.Selected[0]
		}
		v = ahpwire.SelectedAnswer(id)
		if id == "" {
			v.Value = json.RawMessage(`null`)
		}
	case reducer.AnswerSelectedMany:
		v = ahpwire.SelectedManyAnswer(a.Selected)
	default:
		v = ahpwire.TextAnswer(a.Text)
	}
	v.FreeformValues = a.Freeform
	out.Value = &v
	return out
}

// promptKey identifies one prompt of a pending item: a tool call may wait
// for the user several times (approval, authentication, result review, a
// re-confirmation), and each is prompted once automatically.
func promptKey(id string, status reducer.ToolStatus) string { return id + "/" + string(status) }

// openFirstPending opens the first pending approval, sign-in notice or
// question. Unless force is set, items already prompted once are skipped
// (the user chose "later"); it reports whether a prompt was opened.
func (m *Model) openFirstPending(force bool) bool {
	if m.chat == nil || m.screen != screenChat {
		return false
	}
	turn := m.chat.state.ActiveTurnID()
	for _, b := range m.chat.state.PendingApprovals() {
		k := promptKey(b.Tool.ID, b.Tool.Status)
		if !force && m.prompted[k] {
			continue
		}
		m.prompted[k] = true
		if b.Tool.Status == reducer.ToolAuthRequired {
			m.overlays = append(m.overlays, newAuthNotice(m.c.km.Auth, turn, b.Tool))
		} else {
			m.overlays = append(m.overlays, m.newApproval(turn, b.Tool))
		}
		return true
	}
	for _, b := range m.chat.state.PendingInputs() {
		if force || !m.prompted[b.Input.ID] {
			m.prompted[b.Input.ID] = true
			m.overlays = append(m.overlays, newInputForm(m.c.km.Form, turn, b.Input, &m.c.styles))
			return true
		}
	}
	return false
}

// syncPrompts closes prompts whose item was resolved (here or by another
// client) and opens the next pending item automatically (guarded when the
// user was typing).
func (m *Model) syncPrompts() tea.Cmd {
	if m.chat == nil {
		return nil
	}
	live := map[string]bool{}
	for _, b := range m.chat.state.PendingApprovals() {
		live["t:"+promptKey(b.Tool.ID, b.Tool.Status)] = true
	}
	for _, b := range m.chat.state.PendingInputs() {
		live["i:"+b.Input.ID] = true
	}
	kept := m.overlays[:0]
	for _, ov := range m.overlays {
		switch o := ov.(type) {
		case *approvalPrompt:
			if !live["t:"+promptKey(o.tool.ID, o.tool.Status)] {
				continue
			}
		case *authNotice:
			if !live["t:"+promptKey(o.tool.ID, o.tool.Status)] {
				continue
			}
		case *inputForm:
			if !live["i:"+o.req.ID] {
				continue
			}
		}
		kept = append(kept, ov)
	}
	m.overlays = kept
	if len(m.overlays) == 0 && m.openFirstPending(false) {
		return m.guardPrompt()
	}
	return nil
}

// Typing guard: a prompt that opens by itself while the user is typing in
// the composer would otherwise take their next letters as decisions ("a"
// approves, "d" denies). Its decision keys are ignored for promptGuard when
// a key was typed within typingRecent before it opened.
const (
	typingRecent = time.Second
	promptGuard  = 800 * time.Millisecond
)

// guardedPrompt is an overlay whose decision keys can be held back.
type guardedPrompt interface {
	guard(until time.Time, now func() time.Time)
}

// promptGuardEndedMsg redraws the prompt when its guard ends.
type promptGuardEndedMsg struct{}

// guardPrompt guards the prompt just opened if the user was typing, and
// schedules the redraw that shows its keys are live.
func (m *Model) guardPrompt() tea.Cmd {
	now := m.c.now()
	if m.lastTyped.IsZero() || now.Sub(m.lastTyped) >= typingRecent {
		return nil
	}
	g, ok := m.overlays[len(m.overlays)-1].(guardedPrompt)
	if !ok {
		return nil
	}
	g.guard(now.Add(promptGuard), m.c.now)
	return tea.Tick(promptGuard, func(time.Time) tea.Msg { return promptGuardEndedMsg{} })
}
