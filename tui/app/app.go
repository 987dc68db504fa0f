package app

import (
	"context"
	"log/slog"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// App is shared, read-mostly context handed to every child model.
type App struct {
	Ctx       context.Context
	Backend   Backend
	KM        keymap.KeyMap
	Styles    uikit.Styles
	RStyles   render.Styles
	Renderer  *render.Renderer
	Now       func() time.Time
	NewID     func() string
	Log       *slog.Logger
	Host      string
	Editor    string
	Dir       string
	Turns     int
	Frame     time.Duration
	NoticeTTL time.Duration
	AutoTheme bool
	HostStops bool // the host stops when the app quits (demo)
	// Timer replaces tea.Tick for the UI's timers (Options.Tick); nil:
	// tea.Tick.
	Timer     func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	DemoAgent bool           // the host runs the scripted demo agent (tui/quickstart.go)
	Release   func()         // Options.ReleaseMemory
	History   *PromptHistory // the prompt history of every composer (prompthistory.go)
	// Mirror is the attached host's AHP state: every channel this client
	// subscribes (root, sessions, chats, terminals, changesets), loaded from
	// snapshots and moved by envelopes in stream order (the root model feeds
	// it; the screens read it). It is the hostEntry's, replaced on attach.
	Mirror *ahpstate.Mirror
	// Channels follows terminals, changesets and content references (channels.go).
	Channels *Channels
}

// SetTheme rebuilds the styles for a dark or light background.
func (c *App) SetTheme(dark bool) {
	c.RStyles = render.StylesFor(dark)
	c.Styles = uikit.NewStyles(c.RStyles)
	c.Renderer.SetStyles(c.RStyles)
}

// Tick is a timer command, tea.Tick unless Options.Tick replaced it.
func (c *App) Tick(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	if c.Timer != nil {
		return c.Timer(d, fn)
	}
	return tea.Tick(d, fn)
}
