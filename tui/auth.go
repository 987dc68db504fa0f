package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// authNotice tells the user that a tool call waits for authentication
// (auth-required: an MCP server needs a token for a protected resource).
// ahptui cannot run an OAuth sign-in, so it says so plainly and offers the
// two ways forward: authenticate from another client attached to the same
// host (the tool then resumes by itself), or give the tool call up, which
// any client may do (chat/toolCallComplete with success false).
type authNotice struct {
	km         keymap.Auth
	turnID     string
	tool       *ahpwire.ToolCallState
	guardUntil time.Time // see guardPrompt
	now        func() time.Time
}

func (a *authNotice) guard(until time.Time, now func() time.Time) { a.guardUntil, a.now = until, now }

// guarded reports whether decision keys are still held back.
func (a *authNotice) guarded() bool { return a.now != nil && a.now().Before(a.guardUntil) }

// authGiveUpMsg is the user's decision to fail an auth-required tool call.
type authGiveUpMsg struct {
	TurnID     string
	ToolCallID string
	Name       string
}

// authGiveUpMessage is the error the host and agent see when the user gives up.
const authGiveUpMessage = "The user could not authenticate from ahptui (a terminal client without sign-in support) and gave up the tool call."

func newAuthNotice(km keymap.Auth, turnID string, tc *ahpwire.ToolCallState) *authNotice {
	return &authNotice{km: km, turnID: turnID, tool: tc}
}

// Update: f gives up, esc closes (the call stays pending).
func (a *authNotice) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil, resultNone
	}
	switch {
	case key.Matches(k, a.km.GiveUp) && a.now != nil && a.now().Before(a.guardUntil):
		return a, nil, resultNone // typed while the notice appeared
	case key.Matches(k, a.km.GiveUp):
		d := authGiveUpMsg{TurnID: a.turnID, ToolCallID: a.tool.ToolCallID, Name: toolName(a.tool)}
		return a, emit(d), resultClose
	case key.Matches(k, a.km.SignIn) && a.tool.Auth != nil && a.tool.Auth.Resource.Resource != "":
		return a, emit(authSignInMsg{resource: a.tool.Auth.Resource}), resultClose
	case key.Matches(k, a.km.Later):
		return a, nil, resultClose
	}
	return a, nil, resultNone
}

// toolName is the sanitised human name of a tool call.
func toolName(tc *ahpwire.ToolCallState) string {
	return render.Sanitize(firstNonEmpty(tc.DisplayName, tc.ToolName, "tool"))
}

// View draws the notice.
func (a *authNotice) View(st *Styles, width, height int) string {
	inner := max(20, min(width, 90)-4)
	tc := a.tool
	lines := []string{st.Dialog.Title.Render("Sign-in needed: " + toolName(tc) + " is waiting")}
	wrap := func(s string, sty interface{ Render(...string) string }) {
		for _, l := range strings.Split(ansi.Wordwrap(render.Sanitize(s), inner, ""), "\n") {
			lines = append(lines, sty.Render(l))
		}
	}
	if tc.InvocationMessage != nil && tc.InvocationMessage.Text != "" {
		wrap(render.RichPlain(*tc.InvocationMessage), st.Dialog.Text)
	}
	lines = append(lines, "")
	if au := tc.Auth; au != nil {
		if d := firstNonEmpty(au.Description, au.Reason); d != "" {
			wrap(d, st.Dialog.Text)
		}
		if au.Resource.Resource != "" {
			lines = append(lines, st.Dialog.Label.Render("resource ")+st.Dialog.Text.Render(render.Sanitize(au.Resource.Resource)))
		}
		if len(au.RequiredScopes) > 0 {
			lines = append(lines, st.Dialog.Label.Render("scopes   ")+st.Dialog.Text.Render(render.Sanitize(strings.Join(au.RequiredScopes, ", "))))
		}
		lines = append(lines, "")
	}
	wrap("Sign in with a token for this resource (s), or authenticate from another client attached to the same host; "+
		"the tool then continues on its own and this notice closes.", st.Dialog.Warn)
	wrap("Or give up: the tool call fails and the agent is told you could not authenticate.", st.Dialog.Muted)
	lines = append(lines, "")
	hints := keyHints(st, inner, a.km.SignIn.Help().Key, "sign in with a token", "f", "give up (fail the tool call)", "esc", "wait")
	if a.now != nil && a.now().Before(a.guardUntil) {
		hints = append(dimmed(st, hints), st.Dialog.Warn.Render("you were typing: f is off for "+guardLeft(a.guardUntil, a.now())))
	}
	lines = append(lines, hints...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	if len(lines) > height-2 {
		lines = append(lines[:max(1, height-3)], lines[len(lines)-1])
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
