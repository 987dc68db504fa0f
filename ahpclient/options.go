package ahpclient

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/segment"
)

// ProtocolVersions are the versions offered in initialize, most preferred
// first (PROTOCOL.md Part A §1).
var ProtocolVersions = []string{"1.1.0", "1.0.0", "0.9.0"}

// Defaults for zero Options fields.
const (
	DefaultMaxFrameBytes  = segment.DefaultMaxFrameBytes
	DefaultPingInterval   = 15 * time.Second
	DefaultPingTimeout    = 10 * time.Second
	DefaultRequestTimeout = 30 * time.Second
	DefaultDialTimeout    = 15 * time.Second
	DefaultHighWater      = 4096
	DefaultHighWaterBytes = 16 << 20
	DefaultSessionsLimit  = 100
)

// RequestHandler answers a server→client request (resourceRead and
// friends). Return a result to marshal, or an error; an *ahpwire.RPCError is
// sent as is, any other error as -32603.
type RequestHandler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Options configure a Client. Only URL is required.
type Options struct {
	// URL is the host's ws:// or wss:// URL. A `tkn` query parameter is
	// taken as the token when Token is empty.
	URL string
	// Token is the connection token. It is sent both as a query parameter
	// (TokenParam) and as `Authorization: Bearer`, and masked everywhere.
	Token string
	// TokenParam names the query parameter the token travels in; empty
	// means "tkn" (VS Code's hosts). Some hosts read another one (pi-ahp:
	// "token"). A parameter of that name in URL is taken as the token too.
	TokenParam string
	// ClientID is the AHP clientId; empty means an id persisted for this
	// host under StateDir that belongs to this process alone (see StateDir).
	ClientID string
	// StateDir is where client ids are persisted; empty means
	// DefaultStateDir() ($XDG_STATE_HOME/ahptui). Each host has slots
	// client-ids/<host>.0, <host>.1, ...; a client takes the first slot no
	// live process holds (an exclusive lock kept until Close) and reuses
	// the id stored there, so concurrent processes attached to one host
	// never share a clientId while a restarted TUI keeps its own.
	StateDir string
	// ClientInfo is sent in initialize; empty Name means "ahptui".
	ClientInfo ahpwire.Implementation
	// MaxFrameBytes is the receive ceiling: the WebSocket read limit and the
	// advertised maxIncomingFrameBytes. 0 means 16 MiB.
	MaxFrameBytes int64
	// Chunking is the capability advertised to the host; nil means
	// segment.DefaultCapability() with MaxIncomingFrameBytes =
	// MaxFrameBytes. Set DisableChunking to advertise none.
	Chunking *segment.ChunkingCapability
	// DisableChunking advertises no chunking capability (the host must then
	// never segment toward this client).
	DisableChunking bool
	// PingInterval is the heartbeat period; 0 means DefaultPingInterval.
	PingInterval time.Duration
	// PingTimeout bounds a ping's answer and the silence allowed on the link
	// (no frame at all for PingInterval+PingTimeout means a dead link).
	// 0 means DefaultPingTimeout.
	PingTimeout time.Duration
	// RequestTimeout bounds requests whose context has no deadline; 0 means
	// DefaultRequestTimeout, negative means none.
	RequestTimeout time.Duration
	// DialTimeout bounds one connection attempt including the handshake;
	// 0 means DefaultDialTimeout.
	DialTimeout time.Duration
	// Backoff is the reconnect schedule.
	Backoff BackoffPolicy
	// HighWater is the number of queued envelope/snapshot events above which
	// reading from the host pauses until the consumer catches up (lossless
	// backpressure). 0 means DefaultHighWater.
	HighWater int
	// HighWaterBytes bounds the queued events by their payload bytes as
	// HighWater does by their count (an event larger than it passes
	// alone). 0 means DefaultHighWaterBytes.
	HighWaterBytes int64
	// ExplicitAck makes only EnvelopeEvent.Ack (or Client.Ack) mark an
	// envelope applied; by default calling Next also acknowledges every
	// event returned by the previous Next.
	ExplicitAck bool
	// SessionsLimit is the page size of the automatic listSessions after
	// each (re)connection; 0 means DefaultSessionsLimit, negative disables
	// the automatic refresh.
	SessionsLimit int
	// RequestHandler answers server→client requests; nil answers -32601.
	RequestHandler RequestHandler
	// Logger receives diagnostics (tokens masked); nil discards them.
	Logger *slog.Logger
	// HTTPClient is used for the WebSocket handshake (tests, proxies).
	HTTPClient *http.Client
	// TLSConfig configures TLS for a wss:// host (a private CA, a client
	// certificate, a test server's certificate) when HTTPClient is nil;
	// setting both is an error. It is cloned, not kept.
	TLSConfig *tls.Config
	// Header adds handshake headers.
	Header http.Header
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// config is the validated, defaulted form of Options.
type config struct {
	Options
	url      *url.URL // without tkn
	hostKey  string
	chunking *segment.ChunkingCapability
	recvLim  segment.Limits
	mask     redact.Masker
	socket   string // a ws+unix URL's socket path
	// frameHook, when set (tests only), runs on the reader with each
	// complete message before it is handled.
	frameHook func(msg []byte)
}

// validate checks o and fills defaults.
func (o Options) validate() (*config, error) {
	if strings.TrimSpace(o.URL) == "" {
		return nil, errors.New("ahpclient: no host URL given")
	}
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("ahpclient: invalid host URL %q", redact.String(o.URL))
	}
	socket, err := unixSocket(u)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "ws", "wss":
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return nil, fmt.Errorf("ahpclient: host URL %q must start with ws:// or wss://", redact.String(o.URL))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("ahpclient: host URL %q has no host", redact.String(o.URL))
	}
	if o.TokenParam == "" {
		o.TokenParam = "tkn"
	}
	q := u.Query()
	for _, name := range []string{o.TokenParam, "tkn"} {
		if t := q.Get(name); t != "" && o.Token == "" {
			o.Token = t
		}
		q.Del(name)
	}
	u.RawQuery = q.Encode()
	if o.MaxFrameBytes == 0 {
		o.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if o.MaxFrameBytes < 1024 {
		return nil, fmt.Errorf("ahpclient: receive ceiling %d bytes is below 1024", o.MaxFrameBytes)
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.PingTimeout <= 0 {
		o.PingTimeout = DefaultPingTimeout
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.HighWater <= 0 {
		o.HighWater = DefaultHighWater
	}
	if o.HighWaterBytes <= 0 {
		o.HighWaterBytes = DefaultHighWaterBytes
	}
	if o.SessionsLimit == 0 {
		o.SessionsLimit = DefaultSessionsLimit
	}
	if o.ClientInfo.Name == "" {
		o.ClientInfo.Name = "ahptui"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Backoff = o.Backoff.withDefaults()
	if o.TLSConfig != nil {
		if o.HTTPClient != nil {
			return nil, errors.New("ahpclient: set HTTPClient or TLSConfig, not both")
		}
		// No keep-alives: a WebSocket connection is hijacked, never
		// pooled, and a failed handshake must not leave an idle
		// connection (and its goroutines) behind.
		o.HTTPClient = &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyFromEnvironment, TLSClientConfig: o.TLSConfig.Clone(), DisableKeepAlives: true,
		}}
	}
	if socket != "" {
		if o.HTTPClient != nil || o.TLSConfig != nil {
			return nil, errors.New("ahpclient: a ws+unix URL dials its socket: HTTPClient and TLSConfig do not apply")
		}
		o.HTTPClient = unixHTTPClient(socket)
	}
	c := &config{Options: o, url: u, hostKey: hostKey(u), mask: redact.New(o.Token).WithURL(o.URL)}
	if socket != "" {
		c.socket = socket
		c.hostKey = hostKey(&url.URL{Scheme: "ws", Host: "unix" + socket})
	}
	if !o.DisableChunking {
		cc := segment.DefaultCapability()
		if o.Chunking != nil {
			cc = *o.Chunking
		} else {
			cc.MaxIncomingFrameBytes = o.MaxFrameBytes
			if cc.MaxIncomingMessageBytes < cc.MaxIncomingFrameBytes {
				cc.MaxIncomingMessageBytes = cc.MaxIncomingFrameBytes
			}
		}
		if cc.MaxIncomingFrameBytes > o.MaxFrameBytes {
			return nil, fmt.Errorf("ahpclient: chunking maxIncomingFrameBytes %d exceeds the receive ceiling %d",
				cc.MaxIncomingFrameBytes, o.MaxFrameBytes)
		}
		if err := cc.Validate(); err != nil {
			return nil, fmt.Errorf("ahpclient: %w", err)
		}
		c.chunking = &cc
		c.recvLim = cc.Limits()
	} else {
		c.recvLim = segment.Limits{MaxFrameBytes: o.MaxFrameBytes, MaxMessageBytes: o.MaxFrameBytes}
	}
	// One reassembly budget for the client's whole life (every connection):
	// a hostile host cannot make it hold more than two messages' worth of
	// unfinished segment groups, however many groups it opens.
	c.recvLim.Budget = segment.NewBudget(2 * c.recvLim.MaxMessageBytes)
	return c, nil
}

// dialURL is the URL actually dialled (token as the TokenParam query
// parameter).
func (c *config) dialURL() string {
	u := *c.url
	if c.Token != "" {
		q := u.Query()
		q.Set(c.TokenParam, c.Token)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// safeURL is the URL for messages (token removed, userinfo password masked).
func (c *config) safeURL() string {
	if c.socket != "" {
		return schemeUnix + "://" + c.socket
	}
	return redact.String(c.url.String())
}
