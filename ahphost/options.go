package ahphost

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/ahptui/ahptui/segment"
)

// Defaults for Options fields left zero.
const (
	// DefaultReplayLog is the number of action envelopes kept for reconnect replay.
	DefaultReplayLog = 4096
	// DefaultMaxConnections caps simultaneous connections (WebSocket and
	// plain HTTP requests alike); more are refused with 503.
	DefaultMaxConnections = 128
	// DefaultHandshakeTimeout bounds reading the HTTP upgrade request's
	// headers and, separately, the time from upgrade to a successful
	// initialize/reconnect.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultMessageReadTimeout bounds one incoming message from its first
	// frame header to its last fragment.
	DefaultMessageReadTimeout = 30 * time.Second
	// DefaultMaxPendingReadBytes bounds the bytes held by incoming messages
	// not yet complete (or being handled), across all connections.
	DefaultMaxPendingReadBytes = 64 << 20
	// DefaultIdleTimeout closes idle keep-alive HTTP connections (for
	// example after a refused upgrade).
	DefaultIdleTimeout = 10 * time.Second
	// DefaultMaxSubscriptions caps the distinct channels one connection
	// may subscribe to (initialize, reconnect and subscribe).
	DefaultMaxSubscriptions = 256
	// DefaultTerminalRetainBytes bounds the output the host keeps of
	// terminals whose command exited, all together (termretain.go).
	DefaultTerminalRetainBytes = 64 << 20
	// DefaultReplayLogBytes bounds the bytes of the envelopes kept for
	// replay; older envelopes leave the log and a client that missed them
	// reconnects with snapshots.
	DefaultReplayLogBytes = 16 << 20
	// DefaultQueueBytes bounds a connection's unsent outbound bytes; a client
	// that falls further behind is disconnected (it recovers by reconnecting).
	DefaultQueueBytes = 64 << 20
	// DefaultWriteTimeout bounds the write of one frame (at most
	// maxIncomingFrameBytes); a client that does not take it in time is
	// dropped as a slow consumer.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultTurnPage is the number of turns a fetchTurns call loads when the
	// subscription gave no view.turns.
	DefaultTurnPage = 50
	// DefaultProvider is the provider id of the built-in demo agent.
	DefaultProvider = "demo"
	// DefaultKeepAlive is the interval of the host's WebSocket pings; a
	// client that does not answer within the same interval is dropped.
	DefaultKeepAlive = 30 * time.Second
)

// Options configure a Host. The zero value is usable: a random connection
// token, the current directory, 16 MiB frames, no relay cap, instant pace.
type Options struct {
	// Dir is the working directory the demo agent's read-only tools may read
	// ("" = the process's current directory).
	Dir string
	// Token is the connection token; "" means a random one unless NoToken.
	Token string
	// WatchToken, when set, is a second token whose connections may only
	// watch: subscribe and read, never dispatch or create (auth.go says who
	// may do what; serve --watch-token).
	WatchToken string
	// NoToken disables the connection token (--without-connection-token).
	// The Host header is then checked against DNS rebinding: IP literals,
	// localhost, the bound host name and AllowedHosts are accepted.
	NoToken bool
	// AllowedHosts are extra Host header names accepted without a token
	// (--allow-host), e.g. a machine name used on a LAN.
	AllowedHosts []string
	// MaxFrameBytes is the receive ceiling for one frame (the WebSocket read
	// limit) and the host's advertised maxIncomingFrameBytes; 0 = 16 MiB.
	MaxFrameBytes int64
	// MaxMessageBytes is the host's maxIncomingMessageBytes for reassembled
	// messages; 0 = 32 MiB.
	MaxMessageBytes int64
	// RelayFrameCap, when > 0, makes the host behave like a managed pub/sub
	// relay: any frame larger than the cap, in either direction, closes the
	// connection. It is applied below the protocol layer (the host does not
	// avoid it), so a client that advertises too large a frame limit fails.
	RelayFrameCap int64
	// Pace is the demo agent's streaming delay between chunks; 0 = instant.
	Pace time.Duration
	// ReplayLog is the number of envelopes kept for replay; 0 = DefaultReplayLog.
	// Small values force `snapshot` reconnects in tests.
	ReplayLog int
	// MaxConnections caps simultaneous connections; 0 = DefaultMaxConnections.
	MaxConnections int
	// HandshakeTimeout bounds the upgrade request's headers and the time to
	// initialize after it; 0 = DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// MessageReadTimeout bounds one incoming message from its first frame
	// to its last; 0 = DefaultMessageReadTimeout.
	MessageReadTimeout time.Duration
	// MaxPendingReadBytes bounds bytes of unfinished incoming messages
	// across connections; 0 = DefaultMaxPendingReadBytes.
	MaxPendingReadBytes int64
	// MaxSnapshotBytes, when > 0, caps subscribe/initialize/reconnect
	// answers below the peer's own limit (chat snapshots are then windowed
	// sooner; tests and memory-tight deployments). 0 = the peer's limit.
	MaxSnapshotBytes int64
	// LargePartBytes is the size up to which a streaming markdown part
	// grows inline: what the agent streams past it continues as contentRef
	// parts of ResourcePageBytes, and text tool output above it becomes
	// resource blocks, all through actions every subscriber sees
	// (resourceRead serves the pages; bigstream.go); 0 =
	// DefaultLargePartBytes, < 0 never.
	LargePartBytes int64
	// DeltaWindow is how long an agent's consecutive deltas to one part are
	// gathered into one chat/delta (coalesce.go); 0 = DefaultDeltaWindow,
	// < 0 = each delta is sent as it comes.
	DeltaWindow time.Duration
	// InlineStreams turns off the paging of streaming replies and tool
	// output described at LargePartBytes (bigstream.go), which makes a big
	// reply the same parts for every client of the chat. On, a reply
	// streams inline and only fetchTurns serves it by reference (the
	// issue 21 behaviour: live and paged mirrors of one chat then differ);
	// kept for the tests of re-reading a long reply that build on it.
	InlineStreams bool
	// ResourcePageBytes is the size of each such resource (one contentRef
	// per page); 0 = DefaultResourcePageBytes.
	ResourcePageBytes int64
	// ResourceBudget bounds the memory of the resource store (pages of
	// large replies, demo contents); the oldest resources beyond it are
	// evicted to files, never dropped. 0 = DefaultResourceBudget.
	ResourceBudget int64
	// StateDir is the host's state directory: with Durable, its database
	// (state.db, package ahphost/durable) holds every session; without,
	// evicted resources are kept in a private subdirectory of it removed
	// at Close ("" = the system's temporary directory).
	StateDir string
	// Durable keeps every session's whole AHP state in StateDir's
	// database: New restores what it holds (a turn that was running is
	// marked interrupted), and nothing is sent to a client before it is
	// written (persist.go). New fails when another process holds the
	// database (*durable.LockedError) or it is damaged
	// (*durable.CorruptError); the file is then left as it is.
	Durable bool
	// StateBudget bounds the database's size (Durable): past it, the
	// bodies of the oldest archived sessions are dropped first (their
	// chats keep a note saying so). 0 = DefaultStateBudget.
	StateBudget int64
	// ChatMemory bounds the stored size of the chats a durable host keeps
	// in memory while nobody uses them (lazychats.go); past it the least
	// recently used go back to disk. 0 = DefaultChatMemory, < 0 = no bound.
	ChatMemory int64
	// ChatIdle is how long a durable host keeps a chat nobody uses in
	// memory (at least; at most twice). 0 = DefaultChatIdle, < 0 = until
	// ChatMemory is exceeded.
	ChatIdle time.Duration
	// SpillBytes bounds the evicted resources on disk; past it they stay
	// in memory over ResourceBudget. 0 = DefaultSpillBytes.
	SpillBytes int64
	// ReleaseMemory, when set, runs on its own goroutine after a finished
	// turn's large parts were stored as resources and their live text and
	// replayed deltas dropped (at most one run at a time): the process can
	// give the freed memory back to the system at once instead of at its
	// next collection (the CLI passes debug.FreeOSMemory). It must not call
	// back into the host. It runs at most once per ReleaseGap, once the
	// host is quiet.
	ReleaseMemory func()
	// ReleaseGap is the least time between two runs of ReleaseMemory, and
	// twice the quiet (no action sent) a run waits for, up to a minute
	// (release.go). 0 = DefaultReleaseGap.
	ReleaseGap time.Duration
	// MaxSubscriptions caps a connection's distinct subscriptions;
	// 0 = DefaultMaxSubscriptions.
	MaxSubscriptions int
	// TerminalRetainBytes bounds the output kept of exited terminals, all
	// together: past it the oldest exited terminal's output is dropped
	// (its channel says so); 0 = DefaultTerminalRetainBytes.
	TerminalRetainBytes int64
	// WatchGrace is how long a resource watch nobody is subscribed to is
	// kept before it is released; 0 = WatchGrace (watches.go).
	WatchGrace time.Duration
	// Unwatched are directories of ahptui's own files (the user state
	// directory: the log, prompt history) whose changes resource watches
	// do not report when they lie inside the watched directory; StateDir
	// is always among them (watchown.go).
	Unwatched []string
	// ReplayLogBytes bounds the replay log's bytes; 0 = DefaultReplayLogBytes.
	ReplayLogBytes int64
	// QueueBytes bounds unsent bytes per connection; 0 = DefaultQueueBytes.
	QueueBytes int64
	// WriteTimeout bounds one frame write; 0 = DefaultWriteTimeout.
	WriteTimeout time.Duration
	// ReassemblyBudget bounds the bytes held by unfinished segment groups
	// of all connections together; 0 = 4 × MaxMessageBytes (128 MiB by
	// default). A connection whose next segment would exceed it is closed
	// with 4400 (segment.RuleBudgetExceeded); others are not affected.
	ReassemblyBudget int64
	// KeepAlive is the interval of WebSocket pings that detect dead clients
	// (0 = DefaultKeepAlive, negative = off). No pings are sent while the
	// host is silent (GoSilent).
	KeepAlive time.Duration
	// Logger receives the host's logs; nil discards them. The token is never logged.
	Logger *slog.Logger
	// Agent runs turns when Agents is empty; nil = NewDefaultAgent's.
	Agent Agent
	// Agents are several agents offered side by side: every one's
	// providers are listed in RootState.agents, and a session's turns run
	// on the agent of the provider createSession named.
	Agents []Agent
	// Faults injects link failures (tests); see also the Host's runtime methods.
	Faults Faults
	// Now is the clock used for timestamps; nil = time.Now.
	Now func() time.Time
	// Random is the source for tokens and segment group ids; nil = crypto/rand.
	Random io.Reader
	// RequireSignIn makes createSession fail with AuthRequired (-32007)
	// until the client has authenticated for the agent's protected
	// resources (exercises the authenticate-then-retry flow).
	RequireSignIn bool
}

// Faults configures fault injection for every connection. Zero fields are off.
type Faults struct {
	// DropAfterFrames closes each connection abruptly (no close frame) after
	// it has written this many frames.
	DropAfterFrames int
	// DropAtServerSeq closes a connection abruptly instead of writing the
	// first action envelope whose serverSeq is ≥ this value.
	DropAtServerSeq uint64
	// FrameDelay delays every outbound frame.
	FrameDelay time.Duration
	// SilentFor, when > 0, makes the host go silent once (as GoSilent does:
	// no frame read is answered, nothing is written, no close is sent) for
	// this long, SilentAfter after it starts listening (Listen or Serve;
	// a host used through Handler only has GoSilent).
	SilentFor time.Duration
	// SilentAfter is the delay from listening to the SilentFor silence.
	SilentAfter time.Duration
}

// withDefaults returns a copy of o with defaults filled in and validated.
func (o Options) withDefaults() (Options, error) {
	if o.MaxFrameBytes == 0 {
		o.MaxFrameBytes = segment.DefaultMaxFrameBytes
	}
	if o.MaxMessageBytes == 0 {
		o.MaxMessageBytes = segment.DefaultMaxMessageBytes
	}
	if o.MaxMessageBytes < o.MaxFrameBytes {
		o.MaxMessageBytes = o.MaxFrameBytes
	}
	switch {
	case o.MaxFrameBytes < 1024:
		return o, fmt.Errorf("ahphost: max frame bytes %d is below 1024", o.MaxFrameBytes)
	case o.RelayFrameCap < 0:
		return o, fmt.Errorf("ahphost: relay frame cap %d is negative", o.RelayFrameCap)
	case o.RelayFrameCap > 0 && o.RelayFrameCap < 1024:
		return o, fmt.Errorf("ahphost: relay frame cap %d is below 1024", o.RelayFrameCap)
	case o.ReplayLog < 0:
		return o, fmt.Errorf("ahphost: replay log %d is negative", o.ReplayLog)
	case o.Pace < 0:
		return o, fmt.Errorf("ahphost: pace %v is negative", o.Pace)
	case o.Faults.DropAfterFrames < 0 || o.Faults.FrameDelay < 0 ||
		o.Faults.SilentFor < 0 || o.Faults.SilentAfter < 0:
		return o, fmt.Errorf("ahphost: fault options must not be negative")
	case o.Faults.SilentAfter > 0 && o.Faults.SilentFor == 0:
		return o, fmt.Errorf("ahphost: Faults.SilentAfter %v without Faults.SilentFor", o.Faults.SilentAfter)
	case o.NoToken && o.Token != "":
		return o, fmt.Errorf("ahphost: a token and NoToken are mutually exclusive")
	case o.NoToken && o.WatchToken != "":
		return o, fmt.Errorf("ahphost: a watch token needs a connection token (without one every client may do everything)")
	case o.WatchToken != "" && o.WatchToken == o.Token:
		return o, fmt.Errorf("ahphost: the watch token must differ from the connection token")
	}
	if o.ReplayLog == 0 {
		o.ReplayLog = DefaultReplayLog
	}
	unsetToDefault(&o.MaxConnections, DefaultMaxConnections)
	unsetToDefault(&o.HandshakeTimeout, DefaultHandshakeTimeout)
	unsetToDefault(&o.MessageReadTimeout, DefaultMessageReadTimeout)
	unsetToDefault(&o.MaxPendingReadBytes, DefaultMaxPendingReadBytes)
	unsetToDefault(&o.MaxSubscriptions, DefaultMaxSubscriptions)
	unsetToDefault(&o.WatchGrace, WatchGrace)
	unsetToDefault(&o.TerminalRetainBytes, DefaultTerminalRetainBytes)
	unsetToDefault(&o.ReplayLogBytes, DefaultReplayLogBytes)
	if o.KeepAlive == 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	unsetToDefault(&o.WriteTimeout, DefaultWriteTimeout)
	unsetToDefault(&o.QueueBytes, DefaultQueueBytes)
	unsetToDefault(&o.ResourceBudget, DefaultResourceBudget)
	unsetToDefault(&o.SpillBytes, DefaultSpillBytes)
	unsetToDefault(&o.StateBudget, DefaultStateBudget)
	if o.ChatMemory == 0 {
		o.ChatMemory = DefaultChatMemory
	}
	if o.ChatIdle == 0 {
		o.ChatIdle = DefaultChatIdle
	}
	unsetToDefault(&o.ReassemblyBudget, 4*o.MaxMessageBytes)
	if o.LargePartBytes == 0 {
		o.LargePartBytes = DefaultLargePartBytes
		if !o.InlineStreams {
			o.LargePartBytes = DefaultPagedPartBytes
		}
	}
	unsetToDefault(&o.ResourcePageBytes, DefaultResourcePageBytes)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Random == nil {
		o.Random = rand.Reader
	}
	if o.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("ahphost: working directory: %w", err)
		}
		o.Dir = wd
	}
	abs, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, fmt.Errorf("ahphost: dir: %w", err)
	}
	o.Dir = abs
	if st, err := os.Stat(o.Dir); err != nil || !st.IsDir() {
		return o, fmt.Errorf("ahphost: dir %q is not a directory", o.Dir)
	}
	if !o.NoToken && o.Token == "" {
		tok, err := randomToken(o.Random)
		if err != nil {
			return o, err
		}
		o.Token = tok
	}
	return o, nil
}

// DefaultReleaseGap is Options.ReleaseGap's default.
const DefaultReleaseGap = 30 * time.Second

// releaseGap is the least time between two runs of ReleaseMemory.
func (o Options) releaseGap() time.Duration {
	if o.ReleaseGap > 0 {
		return o.ReleaseGap
	}
	return DefaultReleaseGap
}

// readLimit is the WebSocket read limit: the host's frame ceiling, or the
// relay cap when that is smaller.
func (o Options) readLimit() int64 {
	if o.RelayFrameCap > 0 && o.RelayFrameCap < o.MaxFrameBytes {
		return o.RelayFrameCap
	}
	return o.MaxFrameBytes
}

// capability is the chunking capability the host advertises.
func (o Options) capability() segment.ChunkingCapability {
	return segment.ChunkingCapability{
		MaxIncomingFrameBytes:   o.readLimit(),
		MaxIncomingMessageBytes: o.MaxMessageBytes,
		MaxIncomingGroups:       segment.DefaultMaxGroups,
		GroupTimeoutMs:          segment.DefaultGroupTimeoutMs,
	}
}

// NewToken returns a random connection token, as a host given none makes
// (serve keeps it across restarts).
func NewToken() (string, error) { return randomToken(rand.Reader) }

// randomToken returns 24 random bytes, base64url-encoded (32 characters).
func randomToken(r io.Reader) (string, error) {
	b := make([]byte, 24)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("ahphost: generate token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// unsetToDefault sets *v to def when it is zero or negative (unset).
func unsetToDefault[T ~int | ~int64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
