package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
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
	c             *app.App
	conn          ahpclient.ConnState
	wasConnected  bool // the attached host was connected once (onConnState)
	screen        screen
	picker        picker.Model
	chat          *chat.Model
	overlays      []uikit.Overlay
	inbox         *inboxPrompt                // the session a peek from the inbox shows (inbox.go)
	probing       map[picker.HostSession]bool // chats read for what they wait for (inbox_waiting.go)
	width         int
	height        int
	notice        string
	noticeErr     bool
	noticeID      int
	open          *opening
	prompted      map[string]bool // pending items already prompted once
	demoFault     func()
	noMouse       bool
	quitting      bool
	lastTyped     time.Time     // last key typed into the screen (not an overlay)
	typedAhead    bool          // a key went to the composer since a guarded prompt opened (quickstart.go)
	overlayClosed time.Time     // when the last overlay closed (esc debounce)
	retryTicking  bool          // the reconnect countdown tick is running
	retryGen      int           // generation of the countdown tick chain
	stallTicking  bool          // the host-responsiveness tick is running (stall.go)
	stalled       time.Duration // how long an overdue host has been silent (0: answering)
	notify        *notifier     // nil: notifications off
	openAtStart   string        // Options.OpenSession
	startNotice   string        // Options.StartNotice
	hosts         []*hostEntry  // the configured hosts (model_hosts.go); nil: one host
	hostTicking   bool          // the hosts' countdown tick is running
	carry         string        // unsent messages for the next chat's composer (ctrl+n)
	chordX        bool          // ctrl+x was pressed in the composer (chat_keys.go)
	quick         bool          // Options.QuickStart, until the first list (quickstart.go)
	connecting    connecting
	drawn         *drawn // the last frame and status line, reused while unchanged (viewcache.go)
	// lastCreate is the last createSession, retried after a sign-in when
	// the host answered AuthRequired (session_create.go).
	lastCreate  *createRequest
	retryCreate bool
}

// New builds the root model. o.Backend must be started (connected) first.
func New(o Options) Model {
	c := newCommon(o)
	p := picker.New(c.KM.Picker, c.Now, &c.Styles)
	p.HelpKey, p.QuitKey = c.KM.Global.Help.Keys()[0], c.KM.Global.Quit.Keys()[0]
	p.ReconnectKey = c.KM.Global.Reconnect.Help().Key
	m := Model{
		c: c, conn: ahpclient.ConnState{Phase: ahpclient.Connected},
		picker: p, prompted: map[string]bool{}, drawn: &drawn{},
		demoFault: o.DemoFault, noMouse: o.NoMouse, notify: newNotifier(o.Notify), openAtStart: o.OpenSession, startNotice: o.StartNotice,
		hosts: newHosts(o), quick: o.QuickStart && o.OpenSession == "",
	}
	m.picker.Here = o.HostName
	m.c.Mirror = newMirror()
	for _, h := range m.hosts {
		if o.Backend != nil && h.b == o.Backend {
			h.mirror = m.c.Mirror
		}
	}
	m.startHosts()
	if o.Backend == nil {
		// Opened on the inbox alone: the first host up is attached.
		m.conn = ahpclient.ConnState{Phase: ahpclient.Connecting}
		m.picker.Loaded = true
	}
	if o.Connect != nil {
		m.connecting = connecting{active: true, since: c.Now(), url: maskURL(o.URL), connect: o.Connect}
		m.conn = ahpclient.ConnState{Phase: ahpclient.Connecting}
	}
	return m
}

// Init starts the event pump (and asks for the background colour when the
// theme is automatic).
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.picker.Filter.Focus(), m.hostsInit(), app.LoadHistory(m.c.History.Path)}
	if m.c.Backend != nil {
		cmds = append(cmds, waitForEvent(m.c.Ctx, m.c.Backend))
	}
	if m.c.AutoTheme {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if s := m.openAtStart; s != "" && !m.connecting.active {
		cmds = append(cmds, openAtStart(s))
	}
	if m.startNotice != "" {
		cmds = append(cmds, uikit.Notice(m.startNotice, true))
	}
	if m.connecting.active {
		cmds = append(cmds, startConnect(m.c.Ctx, m.connecting.connect), tickConnect(m.c))
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
	m.c.SetTheme(dark)
	m.picker.KM = m.c.KM.Picker
	uikit.StyleTextInput(&m.picker.Filter, &m.c.Styles)
	if m.chat != nil {
		m.chat.Composer.SetStyles(&m.c.Styles)
		m.chat.Transcript.MarkerSty = m.c.Styles.Chat.Marker
		m.chat.Transcript.InvalidateAll()
	}
}

// View draws the current screen, the overlays and the status line.
func (m Model) View() tea.View {
	v := tea.NewView(m.frameContent())
	v.AltScreen = true
	if !m.noMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.ReportFocus = m.notify.enabled() // focus decides whether the user is "elsewhere"
	v.WindowTitle = "ahptui"
	if m.chat != nil && m.screen == screenChat && m.chat.Title != "" {
		v.WindowTitle = "ahptui — " + windowTitleText(m.chat.Title)
	}
	if n := m.picker.Needing(); n > 0 { // the sessions, on every host, that need the user
		v.WindowTitle = capTitle(fmt.Sprintf("(%d) %s", n, v.WindowTitle))
	}
	return v
}

// windowTitleText makes server text safe for the window title, which the
// terminal receives inside an OSC string: render.SanitizeLine, the one
// sanitiser of every output path, drops escape sequences, shows controls
// and bidi overrides as visible tags and caps the length, so the title can
// neither end the OSC early, smuggle in a sequence, reorder text nor grow
// the OSC without bound.
func windowTitleText(s string) string { return render.SanitizeLine(s, render.MaxTitleColumns) }

// capTitle keeps a window title within the cap of a chat's title (the
// count in front takes from it).
func capTitle(t string) string {
	limit := render.MaxTitleColumns + len("ahptui — ")
	if r := []rune(t); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return t
}

// sessionState is the opening or open session's state: the attached
// host's Mirror's (nil until its snapshot came).
func (m *Model) sessionState() *ahpwire.SessionState {
	uri := ""
	switch {
	case m.open != nil:
		uri = m.open.session
	case m.chat != nil:
		uri = m.chat.Session
	}
	if ss, ok := m.c.Mirror.Session(uri); ok && uri != "" {
		return &ss
	}
	return nil
}

// bodyHeight is the height above the status line.
func (m *Model) bodyHeight() int { return max(1, m.height-1) }

func (m Model) render() string {
	ss := m.sessionState()
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var body string
	if m.connecting.active {
		body = m.connectingView(m.width, m.bodyHeight())
	} else if m.screen == screenChat && m.chat != nil {
		body = m.chat.View(ss != nil && len(ss.Changesets) > 0) // the hint line's "f6 changes" (hints.go)
	} else {
		body = m.picker.View(&m.c.Styles)
	}
	if n := len(m.overlays); n > 0 {
		body = m.composeOverlay(body, m.overlays[n-1])
	}
	return fitFrame(body, m.statusLine(m.statusInfo()), m.width, m.height)
}

// fitFrame makes the frame exactly h lines of at most w columns, whatever
// the screens drew: the status line is the last line, the body fills the
// rest (padded with empty lines, or cut from the top so that the composer
// and the hints at its bottom stay visible), and every line is cut at w.
// No screen can make a frame that exceeds the terminal.
func fitFrame(body, status string, w, h int) string {
	lines := strings.Split(body, "\n")
	bodyH := max(0, h-1)
	if len(lines) > bodyH {
		lines = lines[len(lines)-bodyH:]
	}
	for len(lines) < bodyH {
		lines = append(lines, "")
	}
	if i := strings.IndexByte(status, '\n'); i >= 0 {
		status = status[:i]
	}
	lines = append(lines, status)
	if h < 1 {
		lines = lines[:0]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// composeOverlay draws ov centred over body, line by line (only the rows
// the box covers are rebuilt). Those rows are blanked beside the box: a
// word cut in half at the box's edge reads as a rendering glitch.
func (m *Model) composeOverlay(body string, ov uikit.Overlay) string {
	h := m.bodyHeight()
	box := strings.Split(ov.View(&m.c.Styles, m.width, h), "\n")
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

func (m *Model) statusInfo() app.StatusInfo {
	ss := m.sessionState()
	s := app.StatusInfo{Conn: m.conn, Now: m.c.Now(), Host: m.c.Host, Notice: m.notice, NoticeErr: m.noticeErr, Stalled: m.stalled}
	if m.chat != nil && m.screen == screenChat {
		m.chat.Status(&s)
		provider := ""
		if ss != nil {
			provider = ss.Provider
		}
		if s.Model == "" && provider != "" {
			s.Model = chat.AgentModel(m.picker.Agents, provider)
		}
		if v := chat.ModelVendor(m.picker.Agents, provider, s.Model); v != "" && s.Model != "" {
			s.Model += " · " + v // shown next to the model (1.1)
		}
		chat.StatusExtras(&s, ss, len(m.chat.AHP().BackgroundWork))
	}
	return s
}

// setNotice shows a transient notice and schedules its expiry.
func (m *Model) setNotice(text string, isErr bool) tea.Cmd {
	m.noticeID++
	m.notice, m.noticeErr = text, isErr
	if isErr {
		m.c.Log.Warn("notice", "text", text)
	}
	return app.ExpireNotice(m.noticeID, m.c.NoticeTTL)
}

// errNotice shows what failed in words for people ("<what>: <errText>")
// and logs the full error, which keeps the detail the notice leaves out.
func (m *Model) errNotice(what string, err error) tea.Cmd {
	logged := what // already reads as a failure ("could not …")
	if logged == "" {
		logged = "request failed"
	}
	m.c.Log.Warn(logged, "err", err)
	text := app.ErrText(err)
	if what != "" {
		text = what + ": " + text
	}
	return m.setNotice(text, true)
}

func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	m.picker.SetSize(w, m.bodyHeight())
	if m.chat != nil {
		m.chat.SetSize(w, m.bodyHeight())
	}
}
