package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// termViewer shows the terminals the host lists in its root state (or
// one terminal, a tool block's), one at a time: live output through the
// emulator, scrollable, copyable as text. It keeps the shown terminal
// subscribed while open. Enter claims the terminal and sends the keys to
// it (terminal/input) until esc gives it back (termtyping.go).
type termViewer struct {
	x      *extChannels
	km     keymap.Terminal
	idx    int
	uri    string // the pinned terminal
	only   bool   // showing one terminal, not the root's list
	scroll int    // lines up from the end
	page   int

	kmIn     keymap.TermInput
	send     termSender // nil: the viewer is read-only
	clientID string
	typing   bool                  // keys go to the terminal
	prev     ahpwire.TerminalClaim // the claim to give back on release
}

// newTermViewerOn opens the viewer on one terminal (pinned while open).
func newTermViewerOn(x *extChannels, km keymap.Terminal, uri string) (*termViewer, tea.Cmd) {
	v := &termViewer{x: x, km: km, page: 10, uri: uri, only: true}
	return v, x.pin(uri, true)
}

// wire lets the viewer claim and type into terminals.
func (v *termViewer) wire(kmIn keymap.TermInput, send termSender, clientID string) {
	v.kmIn, v.send, v.clientID = kmIn, send, clientID
}

// newTermViewer opens the viewer on the first root terminal.
func newTermViewer(x *extChannels, km keymap.Terminal) (*termViewer, tea.Cmd) {
	v := &termViewer{x: x, km: km, page: 10}
	return v, v.show(0)
}

// show switches to root terminal i (pinning it, unpinning the last).
func (v *termViewer) show(i int) tea.Cmd {
	if len(v.x.rootTerms) == 0 || v.only || v.typing {
		return nil
	}
	i = (i%len(v.x.rootTerms) + len(v.x.rootTerms)) % len(v.x.rootTerms)
	uri := v.x.rootTerms[i].Resource
	if uri == v.uri {
		return nil
	}
	var cmds []tea.Cmd
	if v.uri != "" {
		cmds = append(cmds, v.x.unpin(v.uri))
	}
	v.idx, v.uri, v.scroll = i, uri, 0
	return tea.Batch(append(cmds, v.x.pin(uri, true))...)
}

// Update scrolls, switches, copies and closes.
func (v *termViewer) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	if v.typing {
		return v.updateTyping(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil, resultNone
	}
	switch {
	case key.Matches(k, v.km.Interact):
		return v, v.claim(), resultNone
	case key.Matches(k, v.km.Close):
		var cmd tea.Cmd
		if v.uri != "" {
			cmd = v.x.unpin(v.uri)
		}
		return v, cmd, resultClose
	case key.Matches(k, v.km.Next):
		return v, v.show(v.idx + 1), resultNone
	case key.Matches(k, v.km.Up):
		v.scroll++
	case key.Matches(k, v.km.Down):
		v.scroll = max(0, v.scroll-1)
	case key.Matches(k, v.km.PageUp):
		v.scroll += max(1, v.page-1)
	case key.Matches(k, v.km.PageDown):
		v.scroll = max(0, v.scroll-max(1, v.page-1))
	case key.Matches(k, v.km.Top):
		v.scroll = 1 << 30
	case key.Matches(k, v.km.Bottom):
		v.scroll = 0
	case key.Matches(k, v.km.Copy):
		if t := v.x.terms[v.uri]; t != nil && t.ready {
			text := render.Sanitize(t.lt.Text())
			return v, tea.Batch(tea.SetClipboard(text), notice(fmt.Sprintf("copied %d bytes of terminal text", len(text)), false)), resultNone
		}
	}
	return v, nil, resultNone
}

// View draws the terminal's title, status and the visible lines.
func (v *termViewer) View(st *Styles, width, height int) string {
	inner := max(20, width-4)
	avail := max(1, height-4)
	v.page = avail
	if len(v.x.rootTerms) == 0 && !v.only {
		return st.Help.Box.Render(st.Help.Title.Render("Terminals") + "\n\n" + st.Dialog.Muted.Render("The host lists no terminals.") + "\n" + st.Help.Desc.Render("esc closes"))
	}
	var info ahpwire.TerminalInfo
	if !v.only {
		info = v.x.rootTerms[min(v.idx, len(v.x.rootTerms)-1)]
	}
	status := "running"
	if info.ExitCode != nil {
		status = fmt.Sprintf("exit %d", *info.ExitCode)
	}
	var lines []string
	dropped := "" // hints.go
	t := v.x.terms[v.uri]
	if t == nil || !t.ready {
		lines = []string{st.Dialog.Muted.Render("loading…")}
	} else {
		if s := t.lt.State(); s.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *s.ExitCode)
		}
		if v.only {
			info.Title = t.lt.State().Title
		}
		total := t.lt.LineCount()
		dropped = droppedNote(total)
		v.scroll = min(v.scroll, max(0, total-avail))
		end := total - v.scroll
		lines = t.lt.Lines(max(0, end-avail), min(avail, end), inner, true)
	}
	title := st.Help.Title.Render(oneLine(render.Sanitize(info.Title))) + "  " + st.Help.Desc.Render(v.hint(status))
	// The line under the title says when the scrollback reached its cap.
	out := append([]string{ansi.Truncate(title, inner, "…"), ansi.Truncate(st.Dialog.Muted.Render(dropped), inner, "…")}, lines...)
	return st.Help.Box.Width(min(width, inner+4)).Render(strings.Join(out, "\n"))
}

// hint is the viewer's status line: the terminal's state and the keys.
func (v *termViewer) hint(status string) string {
	where := ""
	if !v.only {
		where = fmt.Sprintf(" · %d/%d · %s next", v.idx+1, len(v.x.rootTerms), v.km.Next.Help().Key)
	}
	release := v.kmIn.Release.Help().Key + " gives it back"
	switch {
	case v.typing && v.x.claimRejected[v.uri] != "":
		return status + " · the host refused the claim: " + oneLine(render.Sanitize(v.x.claimRejected[v.uri])) + " · " + release
	case v.typing && v.owned():
		return status + " · TYPING: keys go to the terminal · " + release
	case v.typing:
		return status + " · claiming… · " + release
	case v.send == nil:
		return status + where + " · ↑/↓ pgup/pgdn · y copy · esc close · read-only"
	}
	return status + where + " · " + v.km.Interact.Help().Key + " type into it · ↑/↓ pgup/pgdn · y copy · esc close"
}

// openTermViewer opens the viewer of the host's terminals (f7).
func (m *Model) openTermViewer() tea.Cmd {
	km := &m.c.km
	v, cmd := newTermViewer(m.c.ext, km.Terminal)
	v.wire(km.TermInput, termSenderFor(m.c.ctx, m.c.backend), clientIDOf(m.c.backend))
	m.overlays = append(m.overlays, v)
	return cmd
}
