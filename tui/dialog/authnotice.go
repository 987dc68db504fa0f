package dialog

import (
	"cmp"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// AuthNotice tells the user that a tool call waits for authentication
// (auth-required: an MCP server needs a token for a protected resource).
// ahptui cannot run an OAuth sign-in, so it says so plainly and offers the
// two ways forward: authenticate from another client attached to the same
// host (the tool then resumes by itself), or give the tool call up, which
// any client may do (chat/toolCallComplete with success false).
type AuthNotice struct {
	km         keymap.Auth
	turnID     string
	tool       *ahpwire.ToolCallState
	guardUntil time.Time // see guardPrompt
	now        func() time.Time
}

// Guard holds the give-up key back until until; now is the clock.
func (a *AuthNotice) Guard(until time.Time, now func() time.Time) { a.guardUntil, a.now = until, now }

// Guarded reports whether decision keys are still held back.
func (a *AuthNotice) Guarded() bool { return a.now != nil && a.now().Before(a.guardUntil) }

// AuthGiveUpMsg is the user's decision to fail an auth-required tool call.
type AuthGiveUpMsg struct {
	TurnID     string
	ToolCallID string
	Name       string
}

// AuthGiveUpMessage is the error the host and agent see when the user gives up.
const AuthGiveUpMessage = "The user could not authenticate from ahptui (a terminal client without sign-in support) and gave up the tool call."

// NewAuthNotice tells that tool call tc of turn turnID waits for a sign-in.
func NewAuthNotice(km keymap.Auth, turnID string, tc *ahpwire.ToolCallState) *AuthNotice {
	return &AuthNotice{km: km, turnID: turnID, tool: tc}
}

// AuthSignInMsg asks the root to open the sign-in prompt for a resource.
type AuthSignInMsg struct {
	Resource ahpwire.ProtectedResourceMetadata
}

// Tool is the tool call waiting for the sign-in.
func (a *AuthNotice) Tool() *ahpwire.ToolCallState { return a.tool }

// Update: f gives up, esc closes (the call stays pending).
func (a *AuthNotice) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, a.km.GiveUp) && a.now != nil && a.now().Before(a.guardUntil):
		return a, nil, uikit.ResultNone // typed while the notice appeared
	case key.Matches(k, a.km.GiveUp):
		d := AuthGiveUpMsg{TurnID: a.turnID, ToolCallID: a.tool.ToolCallID, Name: toolName(a.tool)}
		return a, uikit.Emit(d), uikit.ResultClose
	case key.Matches(k, a.km.SignIn) && a.tool.Auth != nil && a.tool.Auth.Resource.Resource != "":
		return a, uikit.Emit(AuthSignInMsg{Resource: a.tool.Auth.Resource}), uikit.ResultClose
	case key.Matches(k, a.km.Later):
		return a, nil, uikit.ResultClose
	}
	return a, nil, uikit.ResultNone
}

// toolName is the sanitised human name of a tool call.
func toolName(tc *ahpwire.ToolCallState) string {
	return render.Sanitize(cmp.Or(tc.DisplayName, tc.ToolName, "tool"))
}

// View draws the notice.
func (a *AuthNotice) View(st *uikit.Styles, width, height int) string {
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
		if d := cmp.Or(au.Description, au.Reason); d != "" {
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
	hints := uikit.KeyHints(st, inner, a.km.SignIn.Help().Key, "sign in with a token", "f", "give up (fail the tool call)", "esc", "wait")
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
