package tui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Options configure the TUI. Backend is required.
type Options struct {
	// Backend is the AHP client (an *ahpclient.Client in production). It
	// may be nil when Hosts is set: the picker then opens on every host and
	// the first one that connects is attached.
	Backend Backend
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
}

// common is shared, read-mostly context handed to every child model.
type common struct {
	ctx       context.Context
	backend   Backend
	km        keymap.KeyMap
	styles    uikit.Styles
	rstyles   render.Styles
	renderer  *render.Renderer
	now       func() time.Time
	newID     func() string
	log       *slog.Logger
	host      string
	editor    string
	dir       string
	turns     int
	frame     time.Duration
	noticeTTL time.Duration
	autoTheme bool
	hostStops bool           // the host stops when the app quits (demo)
	demoAgent bool           // the host runs the scripted demo agent (quickstart.go)
	release   func()         // Options.ReleaseMemory
	hist      *promptHistory // the prompt history of every composer (history.go)
	// ext follows terminals, changesets and content references (sidechannels.go).
	ext *extChannels
	// out keeps the attached backend's dispatches in order (dispatch_order.go).
	out *outbox
}

func newCommon(o Options) *common {
	c := &common{
		ctx: o.Context, backend: o.Backend, km: keymap.Default(),
		rstyles: render.StylesFor(o.Dark), now: o.Now, newID: o.NewID, log: o.Logger,
		host: o.Host, editor: o.Editor, dir: o.WorkingDir, turns: o.HistoryTurns, frame: o.FrameInterval,
		noticeTTL: o.NoticeTTL, autoTheme: o.AutoTheme, hostStops: o.HostStopsOnQuit, release: o.ReleaseMemory,
	}
	if o.KeyMap != nil {
		c.km = *o.KeyMap
	}
	c.hist = &promptHistory{path: o.HistoryFile}
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.newID == nil {
		c.newID = newUUID
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.turns <= 0 {
		c.turns = 50
	}
	if c.noticeTTL <= 0 {
		c.noticeTTL = 4 * time.Second
	}
	if c.frame <= 0 {
		c.frame = 33 * time.Millisecond
	}
	if o.DemoFault != nil {
		c.km.Demo.DropConnection.SetEnabled(true)
	}
	c.styles = uikit.NewStyles(c.rstyles)
	c.renderer = render.New(c.rstyles)
	c.ext = newExtChannels(c)
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

// setTheme rebuilds the styles for a dark or light background.
func (c *common) setTheme(dark bool) {
	c.rstyles = render.StylesFor(dark)
	c.styles = uikit.NewStyles(c.rstyles)
	c.renderer.SetStyles(c.rstyles)
}
