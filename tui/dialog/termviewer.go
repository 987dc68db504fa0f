package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// TermSource is what the terminal viewer reads and asks of the root's
// terminal subscriptions (package tui's side channels implement it).
type TermSource interface {
	// RootTerminals is the host's terminal catalogue (root state).
	RootTerminals() []ahpwire.TerminalInfo
	// LiveTerminal is uri's emulator once its snapshot arrived (else nil).
	LiveTerminal(uri string) *render.LiveTerminal
	// Pin keeps uri subscribed while the viewer shows it; Unpin lets go.
	Pin(uri string, pty bool) tea.Cmd
	Unpin(uri string) tea.Cmd
	// ClaimRejected is why the host refused this client's last claim of
	// uri ("" none); ClearClaimRejected forgets it before a new claim.
	ClaimRejected(uri string) string
	ClearClaimRejected(uri string)
}

// Sender dispatches an action on a channel (a terminal's, a changeset's);
// what names it for error messages. The dispatch is the tea.Cmd it returns.
type Sender func(channel string, a ahpwire.Action, what string) tea.Cmd

// DroppedNote says, in the terminal viewer, that a terminal's scrollback
// reached its cap (render.TerminalScrollback lines past the screen): the
// older lines are gone, not merely out of sight.
func DroppedNote(total int) string {
	if total < render.TerminalScrollback {
		return ""
	}
	return "older lines dropped (the last " + render.GroupDigits(render.TerminalScrollback) + " are kept)"
}

// TermViewer shows the terminals the host lists in its root state (or
// one terminal, a tool block's), one at a time: live output through the
// emulator, scrollable, copyable as text. It keeps the shown terminal
// subscribed while open. Enter claims the terminal and sends the keys to
// it (terminal/input) until esc gives it back (termtyping.go).
type TermViewer struct {
	src    TermSource
	km     keymap.Terminal
	idx    int
	uri    string // the pinned terminal
	only   bool   // showing one terminal, not the root's list
	scroll int    // lines up from the end
	page   int
	// cols×rows is the text area (termsize.go); hscroll the first column shown.
	cols, rows, hscroll int

	kmIn     keymap.TermInput
	send     Sender // nil: the viewer is read-only
	clientID string
	typing   bool                  // keys go to the terminal
	prev     ahpwire.TerminalClaim // the claim to give back on release
}

// NewTermViewerOn opens the viewer on one terminal (pinned while open).
func NewTermViewerOn(src TermSource, km keymap.Terminal, uri string) (*TermViewer, tea.Cmd) {
	v := &TermViewer{src: src, km: km, page: 10, uri: uri, only: true}
	return v, src.Pin(uri, true)
}

// Wire lets the viewer claim and type into terminals.
func (v *TermViewer) Wire(kmIn keymap.TermInput, send Sender, clientID string) {
	v.kmIn, v.send, v.clientID = kmIn, send, clientID
}

// NewTermViewer opens the viewer on the newest running root terminal (the
// newest when none runs): a durable host lists every terminal it ever ran,
// oldest first, so the first was an ended one of another session (the
// block of a running one says F7 claims it).
func NewTermViewer(src TermSource, km keymap.Terminal) (*TermViewer, tea.Cmd) {
	v := &TermViewer{src: src, km: km, page: 10}
	return v, v.show(newestRunning(src.RootTerminals()))
}

// newestRunning is the index of the last terminal of ts that has not
// exited, else the last one (0 when ts is empty).
func newestRunning(ts []ahpwire.TerminalInfo) int {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].ExitCode == nil {
			return i
		}
	}
	return max(len(ts)-1, 0)
}

// show switches to root terminal i (pinning it, unpinning the last).
func (v *TermViewer) show(i int) tea.Cmd {
	if len(v.src.RootTerminals()) == 0 || v.only || v.typing {
		return nil
	}
	i = (i%len(v.src.RootTerminals()) + len(v.src.RootTerminals())) % len(v.src.RootTerminals())
	uri := v.src.RootTerminals()[i].Resource
	if uri == v.uri {
		return nil
	}
	var cmds []tea.Cmd
	if v.uri != "" {
		cmds = append(cmds, v.src.Unpin(v.uri))
	}
	v.idx, v.uri, v.scroll = i, uri, 0
	return tea.Batch(append(cmds, v.src.Pin(uri, true))...)
}

// Update scrolls, switches, copies and closes.
func (v *TermViewer) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	if v.typing {
		return v.updateTyping(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, v.km.Interact):
		return v, v.Claim(), uikit.ResultNone
	case key.Matches(k, v.km.Close):
		var cmd tea.Cmd
		if v.uri != "" {
			cmd = v.src.Unpin(v.uri)
		}
		return v, cmd, uikit.ResultClose
	case key.Matches(k, v.km.Next):
		return v, v.show(v.idx + 1), uikit.ResultNone
	case key.Matches(k, v.km.Up):
		v.scroll++
	case key.Matches(k, v.km.Down):
		v.scroll = max(0, v.scroll-1)
	case key.Matches(k, v.km.PageUp):
		v.scroll += max(1, v.page-1)
	case key.Matches(k, v.km.PageDown):
		v.scroll = max(0, v.scroll-max(1, v.page-1))
	case key.Matches(k, v.km.Left):
		v.hscrollBy(-max(1, v.cols/2))
	case key.Matches(k, v.km.Right):
		v.hscrollBy(max(1, v.cols/2))
	case key.Matches(k, v.km.Top):
		v.scroll = 1 << 30
	case key.Matches(k, v.km.Bottom):
		v.scroll = 0
	case key.Matches(k, v.km.Copy):
		if lt := v.src.LiveTerminal(v.uri); lt != nil {
			text := render.Sanitize(lt.Text())
			return v, tea.Batch(tea.SetClipboard(text), uikit.Notice(fmt.Sprintf("copied %d bytes of terminal text", len(text)), false)), uikit.ResultNone
		}
	}
	return v, nil, uikit.ResultNone
}

// View draws the terminal's title, status and the visible lines.
func (v *TermViewer) View(st *uikit.Styles, width, height int) string {
	inner, avail := textArea(width, height) // termsize.go (Fit keeps the same for Update)
	if len(v.src.RootTerminals()) == 0 && !v.only {
		return st.Help.Box.Render(st.Help.Title.Render("Terminals") + "\n\n" + st.Dialog.Muted.Render("The host lists no terminals.") + "\n" + st.Help.Desc.Render("esc closes"))
	}
	var info ahpwire.TerminalInfo
	if !v.only {
		info = v.src.RootTerminals()[min(v.idx, len(v.src.RootTerminals())-1)]
	}
	status := "running"
	if info.ExitCode != nil {
		status = fmt.Sprintf("exit %d", *info.ExitCode)
	}
	var lines []string
	dropped := "" // tui/hints.go
	wide := false // lines wider than the viewer
	t := v.src.LiveTerminal(v.uri)
	if t == nil {
		lines = []string{st.Dialog.Muted.Render("loading…")}
	} else {
		if s := t.State(); s.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *s.ExitCode)
		}
		if v.only {
			info.Title = t.State().Title
		}
		total := t.LineCount()
		dropped = DroppedNote(total)
		v.scroll = min(v.scroll, max(0, total-avail))
		end := total - v.scroll
		from, n := max(0, end-avail), min(avail, end)
		over := 0 // how far the widest line shown goes past the viewer
		for _, l := range t.Lines(from, n, 1<<20, false) {
			over = max(over, ansi.StringWidth(l)-inner)
		}
		wide = over > 0 && !v.typing // typing: the terminal is fitted to the viewer (termsize.go)
		v.hscroll = min(v.hscroll, over)
		if !wide {
			v.hscroll = 0
		}
		lines = t.LinesAt(from, n, v.hscroll, inner, true)
	}
	title := st.Help.Title.Render(uikit.OneLine(render.Sanitize(info.Title))) + "  " + st.Help.Desc.Render(v.hint(status, wide))
	// The line under the title says when the scrollback reached its cap.
	out := append([]string{ansi.Truncate(title, inner, "…"), ansi.Truncate(st.Dialog.Muted.Render(dropped), inner, "…")}, lines...)
	return st.Help.Box.Width(min(width, inner+4)).Render(strings.Join(out, "\n"))
}

// hint is the viewer's status line: the terminal's state, who holds it,
// and the keys that apply in that state (while typing: how to leave).
func (v *TermViewer) hint(status string, wide bool) string {
	where := ""
	if !v.only {
		where = fmt.Sprintf(" · %d/%d · %s next", v.idx+1, len(v.src.RootTerminals()), v.km.Next.Help().Key)
	}
	release := v.kmIn.Release.Help().Key + " gives it back"
	switch {
	case v.typing && status != "running":
		return status + " · the program ended: nothing reads the keys · " + release
	case v.typing && v.src.ClaimRejected(v.uri) != "":
		return status + " · the host refused the claim: " + uikit.OneLine(render.Sanitize(v.src.ClaimRejected(v.uri))) + " · " + release
	case v.typing && v.owned():
		return status + " · TYPING · " + release + " · other keys go to the terminal"
	case v.typing:
		return status + " · claiming… · " + release
	}
	keys := " · ↑/↓ pgup/pgdn"
	if wide {
		keys += " · ←/→ sideways"
	}
	keys += " · y copy · esc close"
	claim := v.claimNow()
	switch {
	case v.send == nil:
		return status + where + keys + " · read-only"
	case claim.Kind == ahpwire.ClaimClient && claim.ClientID != v.clientID:
		return status + where + " · another client is typing into it" + keys
	case v.owned():
		return status + where + " · claimed by you: " + v.km.Interact.Help().Key + " types into it" + keys
	case status != "running":
		return status + where + keys
	}
	return status + where + " · " + v.km.Interact.Help().Key + " type into it" + keys
}

// claimNow is who holds the shown terminal (zero while it loads).
func (v *TermViewer) claimNow() ahpwire.TerminalClaim {
	if t := v.src.LiveTerminal(v.uri); t != nil {
		return t.State().Claim
	}
	return ahpwire.TerminalClaim{}
}
