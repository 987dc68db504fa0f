package dialog

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// SignIn asks for a bearer token for a protected resource (RFC 9728
// metadata) and sends it with `authenticate`. The token is masked while
// typed, sent once and never shown, stored or logged.
type SignIn struct {
	km  keymap.SignIn
	res ahpwire.ProtectedResourceMetadata
	in  textinput.Model
	err string
	// all lists every resource that asked for a sign-in while the prompt
	// was open (an ACP agent offers several sign-in methods), res first;
	// Next cycles through them.
	all []ahpwire.ProtectedResourceMetadata
}

// Add offers one more resource in the prompt (once).
func (p *SignIn) Add(r ahpwire.ProtectedResourceMetadata) {
	if len(p.all) == 0 {
		p.all = []ahpwire.ProtectedResourceMetadata{p.res}
	}
	for _, have := range p.all {
		if have.Resource == r.Resource {
			return
		}
	}
	p.all = append(p.all, r)
}

// AuthenticateMsg asks the root to send a token (the prompt has closed).
type AuthenticateMsg struct {
	Resource string
	Name     string
	Token    string
}

// NewSignIn asks for a token for res.
func NewSignIn(km keymap.SignIn, res ahpwire.ProtectedResourceMetadata, st *uikit.Styles) *SignIn {
	in := textinput.New()
	in.Prompt = "token › "
	in.EchoMode = textinput.EchoPassword
	in.EchoCharacter = '•'
	in.Placeholder = "paste the access token"
	in.CharLimit = 16 << 10
	uikit.StyleTextInput(&in, st)
	in.Focus()
	return &SignIn{km: km, res: res, in: in}
}

// ResourceName is the human name of a protected resource.
func ResourceName(r ahpwire.ProtectedResourceMetadata) string {
	return uikit.OneLine(render.Sanitize(cmp.Or(r.ResourceName, r.Resource)))
}

// Update: enter sends, esc cancels; other keys edit the (masked) token.
func (p *SignIn) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.km.Cancel):
			return p, nil, uikit.ResultClose
		case key.Matches(k, p.km.Next) && len(p.all) > 1:
			for i, r := range p.all {
				if r.Resource == p.res.Resource {
					p.res, p.err = p.all[(i+1)%len(p.all)], ""
					break
				}
			}
			return p, nil, uikit.ResultNone
		case key.Matches(k, p.km.Submit):
			tok := strings.TrimSpace(p.in.Value())
			if tok == "" {
				p.err = "Paste a token first (esc to cancel)."
				return p, nil, uikit.ResultNone
			}
			p.in.SetValue("")
			return p, uikit.Emit(AuthenticateMsg{Resource: p.res.Resource, Name: ResourceName(p.res), Token: tok}), uikit.ResultClose
		}
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	return p, cmd, uikit.ResultNone
}

// View draws the prompt: what to sign in to, where to get a token, the
// masked input.
func (p *SignIn) View(st *uikit.Styles, width, height int) string {
	inner := max(20, min(width, 90)-4)
	r := p.res
	lines := []string{st.Dialog.Title.Render("Sign in to " + ResourceName(r))}
	wrap := func(s string, sty interface{ Render(...string) string }) {
		for _, l := range strings.Split(ansi.Wordwrap(render.Sanitize(s), inner, ""), "\n") {
			lines = append(lines, sty.Render(l))
		}
	}
	label := func(k, v string) {
		if v != "" {
			lines = append(lines, st.Dialog.Label.Render(k)+st.Dialog.Text.Render(uikit.OneLine(render.Sanitize(v))))
		}
	}
	if n := len(p.all); n > 1 {
		for i, o := range p.all {
			if o.Resource == r.Resource {
				lines = append(lines, st.Dialog.Muted.Render(fmt.Sprintf("%d of %d ways to sign in · %s next", i+1, n, p.km.Next.Help().Key)))
			}
		}
	}
	label("resource  ", r.Resource)
	label("sign in at ", strings.Join(r.AuthorizationServers, ", "))
	label("scopes    ", strings.Join(r.ScopesSupported, ", "))
	if r.ResourceDocumentation != "" {
		wrap(r.ResourceDocumentation, st.Dialog.Muted)
	}
	lines = append(lines, "")
	wrap("Get an access token from the sign-in page above, then paste it here. It is sent once to the host "+
		"(authenticate) and never shown or saved by ahptui.", st.Dialog.Text)
	lines = append(lines, "", p.in.View())
	if p.err != "" {
		lines = append(lines, st.Dialog.Error.Render(p.err))
	}
	lines = append(lines, "")
	lines = append(lines, uikit.KeyHints(st, inner, p.km.Submit.Help().Key, "send token", p.km.Cancel.Help().Key, "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
