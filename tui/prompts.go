package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/dialog"
)

// promptKey identifies one prompt of a pending item: a tool call may wait
// for the user several times (approval, authentication, result review, a
// re-confirmation), and each is prompted once automatically.
func promptKey(id, status string) string { return id + "/" + status }

// openFirstPending opens the first pending approval, sign-in notice or
// question. Unless force is set, items already prompted once are skipped
// (the user chose "later"); it reports whether a prompt was opened.
func (m *Model) openFirstPending(force bool) bool {
	if m.chat == nil || m.screen != screenChat {
		return false
	}
	turn := m.chat.State.ActiveTurnID()
	for _, b := range m.chat.State.PendingApprovals() {
		// Per turn: an agent may reuse a tool call id in a later turn.
		k := turn + "/" + promptKey(b.Tool.ToolCallID, b.Tool.Status)
		if !force && m.prompted[k] {
			continue
		}
		m.prompted[k] = true
		if b.Tool.Status == ahpwire.ToolAuthRequired {
			m.overlays = append(m.overlays, dialog.NewAuthNotice(m.c.KM.Auth, turn, b.Tool))
		} else {
			m.overlays = append(m.overlays, m.newApproval(turn, b.Tool))
		}
		return true
	}
	for _, b := range m.chat.State.PendingInputs() {
		if force || !m.prompted[b.Input.ID] {
			m.prompted[b.Input.ID] = true
			m.overlays = append(m.overlays, dialog.NewInputForm(m.c.KM.Form, turn, b.Input, &m.c.Styles))
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
	for _, b := range m.chat.State.PendingApprovals() {
		live["t:"+promptKey(b.Tool.ToolCallID, b.Tool.Status)] = true
	}
	for _, b := range m.chat.State.PendingInputs() {
		live["i:"+b.Input.ID] = true
	}
	kept := m.overlays[:0]
	for _, ov := range m.overlays {
		switch o := ov.(type) {
		case *dialog.Approval:
			if !live["t:"+promptKey(o.Tool().ToolCallID, o.Tool().Status)] {
				continue
			}
		case *dialog.AuthNotice:
			if !live["t:"+promptKey(o.Tool().ToolCallID, o.Tool().Status)] {
				continue
			}
		case *dialog.InputForm:
			if !live["i:"+o.RequestID()] {
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
	Guard(until time.Time, now func() time.Time)
}

// promptGuardEndedMsg redraws the prompt when its guard ends.
type promptGuardEndedMsg struct{}

// guardPrompt guards the prompt just opened if the user was typing, and
// schedules the redraw that shows its keys are live.
func (m *Model) guardPrompt() tea.Cmd {
	now := m.c.Now()
	if m.lastTyped.IsZero() || now.Sub(m.lastTyped) >= typingRecent {
		return nil
	}
	g, ok := m.overlays[len(m.overlays)-1].(guardedPrompt)
	if !ok {
		return nil
	}
	g.Guard(now.Add(promptGuard), m.c.Now)
	m.typedAhead = false
	return m.c.Tick(promptGuard, func(time.Time) tea.Msg { return promptGuardEndedMsg{} })
}

// newApproval builds the approval prompt for a tool call of the open chat,
// rendering its body through the transcript renderer.
func (m *Model) newApproval(turn string, tc *ahpwire.ToolCallState) *dialog.Approval {
	p := dialog.NewApproval(m.c.KM.Approval, turn, tc, &m.c.Styles)
	ch, r := m.chat, m.c.Renderer
	p.SetLive(func(width int) ([]string, *ahpwire.ToolCallState) {
		msg := ch.State.Current
		if msg == nil {
			return nil, nil
		}
		for _, b := range msg.Blocks.All() {
			if b.Kind == reducer.KindToolCall && b.Tool != nil && b.Tool.ToolCallID == tc.ToolCallID {
				// The fetched contents too: an edit's diff is behind content
				// references (an ACP agent's always is).
				v := ch.ViewOptsBase() // what the transcript draws with (contents, terminals, directories)
				v.Thinking, v.Expanded, v.Hints = 0, nil, p.PromptHints()
				return r.RenderBlock(msg, b, width, v), b.Tool
			}
		}
		return nil, nil
	})
	return p
}

// decideTool dispatches an approval decision.
func (m *Model) decideTool(d dialog.ToolDecisionMsg) tea.Cmd {
	if !m.inboxTool(d) && m.chat == nil {
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
	if m.inboxTool(d) { // decided from the inbox (inbox.go)
		return m.sendInbox(a, what)
	}
	return m.c.Dispatch(m.chat.URI, a, what)
}

// giveUpAuth fails an auth-required tool call (allowed for any client).
func (m *Model) giveUpAuth(d dialog.AuthGiveUpMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatToolCallComplete{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Result: ahpwire.ToolCallResult{
		Success:          false,
		PastTenseMessage: ahpwire.Plain(d.Name + " was given up: authentication is not available in ahptui"),
		Error:            &ahpwire.ToolError{Message: dialog.AuthGiveUpMessage, Code: "auth-unavailable"},
	}}
	return m.c.Dispatch(m.chat.URI, a, "give up tool call")
}

// decideInput dispatches the answer to an input request.
func (m *Model) decideInput(d dialog.InputDecisionMsg) tea.Cmd {
	if !m.inboxInput(d) && m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatInputCompleted{RequestID: d.RequestID, Response: d.Response}
	if len(d.Answers) > 0 {
		a.Answers = d.Answers
	}
	if m.inboxInput(d) { // answered from the inbox (inbox.go)
		return m.sendInbox(a, "answer question")
	}
	return m.c.Dispatch(m.chat.URI, a, "answer question")
}
