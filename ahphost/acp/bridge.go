package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Defaults for Config fields left zero.
const (
	// DefaultRequestTimeout bounds initialize and every request but
	// session/prompt.
	DefaultRequestTimeout = 30 * time.Second
	// DefaultMaxFileBytes bounds one fs/read_text_file or write_text_file.
	DefaultMaxFileBytes = 16 << 20
	// DefaultTerminalOutput bounds the output a terminal keeps for
	// terminal/output when the agent names no outputByteLimit.
	DefaultTerminalOutput = 1 << 20
	// answerQueueFiles is how many of the largest file reads may be
	// queued to the agent at once (maxAnswerQueue).
	answerQueueFiles = 2
	// stderrLines is how many stderr lines a crash report quotes.
	stderrLines = 12
)

// Config configures one Bridge: one ACP agent command.
type Config struct {
	// Name is the provider id the host lists ("claude"); required.
	Name string
	// Title is the provider's display name ("" = Name).
	Title string
	// Command is the agent executable (a path or a name on PATH); required.
	Command string
	// Args are the command's arguments.
	Args []string
	// Env are extra "KEY=VALUE" entries added to the host's environment.
	Env []string
	// Dir is the working directory of sessions that name none ("" = the
	// process's current directory).
	Dir string
	// StateDir keeps the session index ("" = no index: sessions end with
	// the host).
	StateDir string
	// Logger receives the bridge's logs and the agent's stderr; nil
	// discards them.
	Logger *slog.Logger
	// RequestTimeout bounds initialize and every request but
	// session/prompt; 0 = DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxFileBytes bounds file reads and writes; 0 = DefaultMaxFileBytes.
	MaxFileBytes int64
	// StdinTimeout bounds one write to the agent's stdin: an agent that
	// reads none of it for so long is taken for dead and stopped;
	// 0 = DefaultStdinTimeout.
	StdinTimeout time.Duration
	// Now is the clock of turn durations; nil = time.Now.
	Now func() time.Time
	// Shim is the absolute path of the program that starts the agent
	// under the agent shim (shim.go): this program, whose main calls
	// RunShim first. "" = the agent is started directly (and on systems
	// other than Linux), its setsid'd children then outlive a killed host.
	Shim string
}

// Bridge is one ACP agent behind the host (an agent.Agent).
type Bridge struct {
	cfg Config
	log *slog.Logger

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc

	mu       sync.Mutex
	proc     *proc               // the running agent process, nil until needed
	starting chan struct{}       // closed when a start in progress ends
	sessions map[string]*session // by AHP session URI
	byACP    map[string]*session // by ACP session id
	schema   configSchema        // of the last session/new
	warming  bool                // warmUp ran (warm.go)
	warm     *warmUpRun          // the warm-up in flight or done, nil before
	spare    *spareSession       // a session opened by warmUp, not yet used
	index    *index
	auth     authState        // sign-in variables and their masker (auth.go)
	limits   *limits          // bounds of the agent's requests (limits.go)
	methods  []sdk.AuthMethod // the sign-in methods of the last agent started
	closed   bool
	wg       sync.WaitGroup
}

var (
	_ agent.Agent               = (*Bridge)(nil)
	_ agent.SessionCompleter    = (*Bridge)(nil)
	_ agent.SessionDirCompleter = (*Bridge)(nil)
	_ agent.Configurer          = (*Bridge)(nil)
	_ agent.SessionCloser       = (*Bridge)(nil)
	_ agent.SessionLister       = (*Bridge)(nil)
	_ agent.Closer              = (*Bridge)(nil)
	_ agent.ConfigApplier       = (*Bridge)(nil)
	_ agent.SessionOpener       = (*Bridge)(nil)
	_ sdk.Client                = (*client)(nil)
)

// New returns a Bridge for cfg. It starts nothing: the agent process is
// started by the first turn.
func New(cfg Config) (*Bridge, error) {
	if cfg.Name == "" || cfg.Command == "" {
		return nil, errors.New("acp: an agent needs a name and a command")
	}
	if cfg.Title == "" {
		cfg.Title = cfg.Name
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.StdinTimeout <= 0 {
		cfg.StdinTimeout = DefaultStdinTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("acp: working directory: %w", err)
		}
		cfg.Dir = wd
	}
	b := &Bridge{
		cfg:      cfg,
		log:      cfg.Logger.With("agent", cfg.Name),
		sessions: map[string]*session{},
		byACP:    map[string]*session{},
		limits:   newLimits(maxAnswerQueue(cfg.MaxFileBytes)),
	}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	if cfg.StateDir != "" {
		ix, err := openIndex(cfg.StateDir, cfg.Name)
		if err != nil {
			b.log.Warn("session index unreadable; starting without it", "err", err)
		}
		b.index = ix
	}
	return b, nil
}

// Providers lists the one provider of this agent.
func (b *Bridge) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{
		Provider:    b.cfg.Name,
		DisplayName: b.cfg.Title,
		Description: "ACP agent: " + b.cfg.Command,
	}}
}

// StoredSessions lists the sessions of the index (host restart).
func (b *Bridge) StoredSessions() []agent.StoredSession {
	if b.index == nil {
		return nil
	}
	var out []agent.StoredSession
	for _, r := range b.index.list() {
		out = append(out, agent.StoredSession{URI: r.URI, Provider: b.cfg.Name, Title: r.Title, Dir: r.Dir, CreatedAt: r.CreatedAt})
	}
	return out
}

// CloseSession forgets a disposed session (and its index entry), closes
// its terminals and, when the agent offers it, session/close.
func (b *Bridge) CloseSession(uri string) {
	b.mu.Lock()
	s := b.sessions[uri]
	delete(b.sessions, uri)
	if s != nil && s.acpID != "" {
		delete(b.byACP, s.acpID)
	}
	p := b.proc
	b.mu.Unlock()
	if b.index != nil {
		b.index.remove(uri)
	}
	if s == nil {
		return
	}
	s.closeTerminals()
	if p == nil || s.acpID == "" {
		return
	}
	caps := p.init.AgentCapabilities.SessionCapabilities
	ctx, cancel := context.WithTimeout(b.ctx, b.cfg.RequestTimeout)
	defer cancel()
	if caps.Close != nil {
		if _, err := p.conn.CloseSession(ctx, sdk.CloseSessionRequest{SessionId: sdk.SessionId(s.acpID)}); err != nil {
			b.log.Debug("session/close", "err", err)
		}
	}
	// A disposed session is gone for the user: gone from the agent's own
	// store too, where the agent can delete it.
	if caps.Delete != nil {
		if _, err := p.conn.UnstableDeleteSession(ctx, sdk.UnstableDeleteSessionRequest{SessionId: sdk.SessionId(s.acpID)}); err != nil {
			b.log.Warn("session/delete", "session", uri, "err", err)
		}
	}
}

// Close kills the agent's process group, closes every terminal and waits
// for the bridge's goroutines.
func (b *Bridge) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	p := b.proc
	sessions := make([]*session, 0, len(b.sessions))
	for _, s := range b.sessions {
		sessions = append(sessions, s)
	}
	b.mu.Unlock()
	b.cancel()
	for _, s := range sessions {
		s.closeTerminals()
	}
	if p != nil {
		p.kill()
		<-p.exited
	}
	b.wg.Wait()
	return nil
}

// maxAnswerQueue bounds the answer bytes of file reads and terminal
// output queued to the agent.
func maxAnswerQueue(maxFile int64) int64 { return answerQueueFiles * maxFile }

// errClosed is returned once the bridge was closed.
var errClosed = errors.New("acp: the agent bridge is closed")
