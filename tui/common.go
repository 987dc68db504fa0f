package tui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Options configure the TUI. Backend is required.
type Options struct {
	// Backend is the AHP client (an *ahpclient.Client in production). It
	// may be nil when Hosts is set: the picker then opens on every host and
	// the first one that connects is attached.
	Backend app.Backend
	// Hosts are the configured hosts: the picker lists the sessions of
	// every one, grouped by host, each on its own connection, and choosing
	// a session of another host attaches to it (model_hosts.go).
	Hosts []HostOption
	// HostName is the attached host's name among Hosts ("" when attached
	// by URL).
	HostName string
	// Context bounds every command; nil means context.Background().
	Context context.Context
	// Host is shown in the status line; it must already be token-masked.
	Host string
	// Dark selects dark styles (false = light).
	Dark bool
	// AutoTheme asks the terminal for its background colour and switches
	// between dark and light styles when it answers.
	AutoTheme bool
	// NoMouse leaves the mouse to the terminal (no wheel scrolling).
	NoMouse bool
	// Editor is the command for long prompts ($VISUAL or $EDITOR).
	Editor string
	// WorkingDir is given to new sessions ("" = host default).
	WorkingDir string
	// Connect, when set, establishes the connection (the client's Start,
	// with its timeout): the model starts on a connecting screen showing
	// URL, the time spent and how to quit, runs Connect as a command, and
	// quits with ConnectionFailure set if it fails. Without it the backend
	// must be connected before New.
	Connect func(context.Context) error
	// URL is the host's URL for the connecting screen; secrets in it
	// (password, token parameters) are masked before it is shown.
	URL string
	// HostStopsOnQuit says the host runs inside this process (`ahptui
	// demo`) and stops when the app quits: the quit prompt then says a
	// running turn stops, not that it keeps running on the host.
	HostStopsOnQuit bool
	// DemoFault, when set, enables the demo-only key (f12) that calls it to
	// drop the connection (it must not block for long).
	DemoFault func()
	// HistoryTurns bounds the chat snapshot to the last N turns (view.turns);
	// older turns are fetched when scrolling up. 0 means 50.
	HistoryTurns int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NewID returns fresh ids for turns, queued messages and sessions; nil
	// means random UUIDs.
	NewID func() string
	// OpenSession, when set, opens this session (its URI) at start instead
	// of showing the session picker first.
	OpenSession string
	// StartNotice, when set, is shown at start as a warning notice (the
	// embedded host could not keep this run's sessions, say).
	StartNotice string
	// Notify turns on notifications (bell, desktop) for sessions that need
	// the user while they are elsewhere; nil means off.
	Notify *NotifyOptions
	// KeyMap replaces the default key bindings (the config file's key
	// overrides, see keymap.Override); nil means keymap.Default().
	KeyMap *keymap.KeyMap
	// Logger receives diagnostics; nil discards them. The model logs from
	// Update, so the logger's handler must not wait for I/O (ahptui's own
	// log file queues lines for a writer goroutine).
	Logger *slog.Logger
	// FrameInterval is the streaming frame period; 0 means 33 ms.
	FrameInterval time.Duration
	// NoticeTTL is how long a status notice stays; 0 means 4 s.
	NoticeTTL time.Duration
	// QuickStart opens a new chat (first agent, the host's defaults) when
	// the attached host has no sessions, instead of the empty picker.
	QuickStart bool
	// HistoryFile is the prompt history's file (one per host, under the
	// state directory); "" keeps the history in memory only.
	HistoryFile string
	// ReleaseMemory, when set, runs in a command (off the UI goroutine)
	// after the chat dropped a long text it held (a finished reply shown
	// by reference from then on), so that the process can give the freed
	// memory back (the CLI passes debug.FreeOSMemory). nil: nothing.
	ReleaseMemory func()
	// Tick, when set, makes the UI's timers of a second or so (connecting,
	// host retries, the reconnect countdown, stalls, a prompt's key guard)
	// instead of tea.Tick: tests give ones they need not wait out. nil:
	// tea.Tick.
	Tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
}

func newCommon(o Options) *app.App {
	c := &app.App{
		Ctx: o.Context, Backend: o.Backend, KM: keymap.Default(),
		RStyles: render.StylesFor(o.Dark), Now: o.Now, NewID: o.NewID, Log: o.Logger,
		Host: o.Host, Editor: o.Editor, Dir: o.WorkingDir, Turns: o.HistoryTurns, Frame: o.FrameInterval,
		NoticeTTL: o.NoticeTTL, AutoTheme: o.AutoTheme, HostStops: o.HostStopsOnQuit, Release: o.ReleaseMemory,
		Timer: o.Tick,
	}
	if o.KeyMap != nil {
		c.KM = *o.KeyMap
	}
	c.History = &app.PromptHistory{Path: o.HistoryFile}
	if c.Ctx == nil {
		c.Ctx = context.Background()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.NewID == nil {
		c.NewID = newUUID
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Turns <= 0 {
		c.Turns = 50
	}
	if c.NoticeTTL <= 0 {
		c.NoticeTTL = 4 * time.Second
	}
	if c.Frame <= 0 {
		c.Frame = 33 * time.Millisecond
	}
	if o.DemoFault != nil {
		c.KM.Demo.DropConnection.SetEnabled(true)
	}
	c.Styles = uikit.NewStyles(c.RStyles)
	c.Renderer = render.New(c.RStyles)
	c.Channels = app.NewChannels(c)
	return c
}

// newUUID returns a random RFC 4122 version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
