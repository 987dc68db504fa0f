package tui

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// screen is the main screen shown under the overlays.
type screen int

const (
	screenPicker screen = iota
	screenChat
)

// opening tracks a session being opened or created until its chat is known.
type opening struct {
	session string
	created bool
}

// Model is the root Bubble Tea model. It routes messages to the picker, the
// chat screen and the overlay stack, and turns their intents into commands.
type Model struct {
	c             *common
	conn          ahpclient.ConnState
	screen        screen
	picker        picker
	chat          *chatModel
	overlays      []overlay
	width         int
	height        int
	notice        string
	noticeErr     bool
	noticeID      int
	open          *opening
	session       *ahpwire.SessionState // state of the chat's session
	prompted      map[string]bool       // pending items already prompted once
	demoFault     func()
	noMouse       bool
	quitting      bool
	lastTyped     time.Time // last key typed into the screen (not an overlay)
	overlayClosed time.Time // when the last overlay closed (esc debounce)
	retryTicking  bool      // the reconnect countdown tick is running
	retryGen      int       // generation of the countdown tick chain
	// lastCreate is the last createSession, retried after a sign-in when
	// the host answered AuthRequired (model_steer.go).
	lastCreate  *createRequest
	retryCreate bool
}

// New builds the root model. o.Backend must be started (connected) first.
func New(o Options) Model {
	c := newCommon(o)
	p := newPicker(c.km.Picker, c.now, &c.styles)
	p.helpKey, p.quitKey = c.km.Global.Help.Keys()[0], c.km.Global.Quit.Keys()[0]
	p.reconnectKey = c.km.Global.Reconnect.Help().Key
	return Model{
		c: c, conn: ahpclient.ConnState{Phase: ahpclient.Connected},
		picker: p, prompted: map[string]bool{},
		demoFault: o.DemoFault, noMouse: o.NoMouse,
	}
}

// Init starts the event pump (and asks for the background colour when the
// theme is automatic).
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitForEvent(m.c.ctx, m.c.backend), m.picker.filter.Focus()}
	if m.c.autoTheme {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// ConnectionFailure returns why the connection failed for good, or nil. The
// caller (main) reports it after the program exits.
func (m Model) ConnectionFailure() error {
	if m.conn.Phase != ahpclient.Failed {
		return nil
	}
	if m.conn.Err != nil {
		return m.conn.Err
	}
	return errors.New("connection failed")
}

// setTheme switches between dark and light styles.
func (m *Model) setTheme(dark bool) {
	m.c.setTheme(dark)
	m.picker.km = m.c.km.Picker
	styleTextInput(&m.picker.filter, &m.c.styles)
	if m.chat != nil {
		m.chat.comp.SetStyles(&m.c.styles)
		m.chat.tr.markerSty = m.c.styles.Chat.Marker
		m.chat.tr.invalidateAll()
	}
}

// View draws the current screen, the overlays and the status line.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	if !m.noMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "ahptui"
	if m.chat != nil && m.screen == screenChat && m.chat.title != "" {
		v.WindowTitle = "ahptui — " + windowTitleText(m.chat.title)
	}
	return v
}

// windowTitleText makes server text safe for the window title, which the
// terminal receives inside an OSC string: escape sequences are stripped and
// every control character (C0, DEL, C1, and so newlines) is dropped, so the
// title can neither end the OSC early nor smuggle in a sequence of its own.
func windowTitleText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return -1
		}
		return r
	}, ansi.Strip(s))
}

// bodyHeight is the height above the status line.
func (m *Model) bodyHeight() int { return max(1, m.height-1) }

func (m Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var body string
	if m.screen == screenChat && m.chat != nil {
		body = m.chat.View()
	} else {
		body = m.picker.View(&m.c.styles)
	}
	if n := len(m.overlays); n > 0 {
		body = m.composeOverlay(body, m.overlays[n-1])
	}
	return body + "\n" + renderStatus(&m.c.styles, m.statusInfo(), m.width)
}

// composeOverlay draws ov centred over body, line by line (only the rows
// the box covers are rebuilt). Those rows are blanked beside the box: a
// word cut in half at the box's edge reads as a rendering glitch.
func (m *Model) composeOverlay(body string, ov overlay) string {
	h := m.bodyHeight()
	box := strings.Split(ov.View(&m.c.styles, m.width, h), "\n")
	lines := strings.Split(body, "\n")
	for len(lines) < h {
		lines = append(lines, "")
	}
	bw := 0
	for _, l := range box {
		bw = max(bw, ansi.StringWidth(l))
	}
	x, y := max(0, (m.width-bw)/2), max(0, (h-len(box))/2)
	pad := strings.Repeat(" ", x)
	for i, bl := range box {
		row := y + i
		if row >= len(lines) {
			break
		}
		lines[row] = pad + "\x1b[m" + ansi.Truncate(bl, m.width-x, "") + "\x1b[m"
	}
	return strings.Join(lines[:h], "\n")
}

func (m *Model) statusInfo() statusInfo {
	s := statusInfo{conn: m.conn, now: m.c.now(), host: m.c.host, notice: m.notice, noticeEr: m.noticeErr}
	if m.chat != nil && m.screen == screenChat {
		m.chat.status(&s)
		if s.model == "" && m.session != nil && m.session.Provider != "" {
			s.model = agentModel(m.picker.agents, m.session.Provider)
		}
		statusExtras(&s, m.session, len(m.chat.ahp.BackgroundWork))
	}
	return s
}

// setNotice shows a transient notice and schedules its expiry.
func (m *Model) setNotice(text string, isErr bool) tea.Cmd {
	m.noticeID++
	m.notice, m.noticeErr = text, isErr
	if isErr {
		m.c.log.Warn("notice", "text", text)
	}
	return expireNotice(m.noticeID, m.c.noticeTTL)
}

func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	m.picker.SetSize(w, m.bodyHeight())
	if m.chat != nil {
		m.chat.SetSize(w, m.bodyHeight())
	}
}
