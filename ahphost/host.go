package ahphost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/internal/wseof"
	"github.com/ahptui/ahptui/segment"
)

// ErrClosed is returned by Listen and Serve after Close.
var ErrClosed = errors.New("ahphost: host closed")

// Host is an embedded AHP host. It is safe for concurrent use.
type Host struct {
	opts     Options
	log      *slog.Logger
	tokens   tokenChecker
	hosts    hostChecker
	splitter *segment.Splitter
	agent    Agent
	reasmBud *segment.Budget // shared by every connection's Reassembler

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	silentUntil atomic.Int64
	refuseUntil atomic.Int64 // unix nanos until which Outage refuses new connections
	faults      faultState
	nextConn    atomic.Uint64
	rejectLog   logLimiter
	// active counts requests being served (upgrades and open WebSockets).
	active atomic.Int64
	// pendingRead is the bytes held by incoming messages being read or
	// handled, across connections (Options.MaxPendingReadBytes).
	pendingRead atomic.Int64
	// buildSem bounds concurrent builds of deferred results.
	buildSem chan struct{}
	// release paces Options.ReleaseMemory (release.go).
	release releaseState
	// encoded keeps resourceRead answers for the next reader (rescache.go).
	encoded encodedResults

	mu     sync.Mutex
	closed bool
	conns  map[*conn]struct{}
	st     *store // protocol state; guarded by mu

	lnMu sync.Mutex
	srv  *http.Server
	url  string
}

// New returns a host configured by opts. It does not listen; use Listen,
// Serve or Handler.
func New(opts Options) (*Host, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	h := &Host{
		opts:     o,
		log:      redact.Logger(o.Logger, redact.New(o.Token)), // no log line carries the token
		tokens:   newTokenChecker(o.Token, o.WatchToken, o.NoToken),
		hosts:    newHostChecker(o.NoToken, o.AllowedHosts),
		splitter: segment.NewSplitter(o.Random),
		reasmBud: segment.NewBudget(o.ReassemblyBudget),
		conns:    make(map[*conn]struct{}),
		buildSem: make(chan struct{}, buildSlots),
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.faults.dropAfter = int64(o.Faults.DropAfterFrames)
	h.faults.dropAtSeq = o.Faults.DropAtServerSeq
	h.faults.delay = o.Faults.FrameDelay
	h.faults.rearm()
	agents, err := agentsOf(o)
	if err != nil {
		return nil, err
	}
	h.agent = newAgent(agents)
	var db *durable.DB
	if o.Durable {
		if o.StateDir == "" {
			return nil, errors.New("ahphost: a durable host needs Options.StateDir")
		}
		if db, err = durable.Open(o.StateDir); err != nil {
			return nil, err
		}
	}
	if h.st, err = newStore(h, db); err != nil {
		if db != nil {
			_ = db.Close()
		}
		return nil, err
	}
	if db != nil {
		_ = db.SetOwner("")
		h.logOpened(db) // restore.go
		h.wg.Add(1)
		go h.commitLoop()
	}
	return h, nil
}

// Token returns the connection token ("" when disabled).
func (h *Host) Token() string {
	if h.opts.NoToken {
		return ""
	}
	return h.opts.Token
}

// Handler returns the WebSocket endpoint as an http.Handler (for httptest).
// Every path is served.
func (h *Host) Handler() http.Handler { return http.HandlerFunc(h.serveHTTP) }

// ConnectURL returns the ws:// URL for a server listening at addr
// (host:port), with ?tkn= when a token is set.
func (h *Host) ConnectURL(addr string) string {
	u := url.URL{Scheme: "ws", Host: addr}
	if tok := h.Token(); tok != "" {
		u.RawQuery = url.Values{"tkn": {tok}}.Encode()
	}
	return u.String()
}

// Listen starts serving on addr (e.g. "127.0.0.1:0") in the background and
// returns the connect URL (ws://127.0.0.1:PORT?tkn=TOKEN).
func (h *Host) Listen(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("ahphost: listen %s: %w", addr, err)
	}
	h.mu.Lock()
	h.hosts.allow(addr)
	h.mu.Unlock()
	u, err := h.serveOn(ln)
	if err != nil {
		_ = ln.Close()
		return "", err
	}
	return u, nil
}

// Serve serves on ln until ctx is done or Close is called, then closes the
// host. It returns nil after a clean shutdown.
func (h *Host) Serve(ctx context.Context, ln net.Listener) error {
	if _, err := h.serveOn(ln); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-h.ctx.Done():
	}
	h.Close()
	return nil
}

func (h *Host) serveOn(ln net.Listener) (string, error) {
	h.lnMu.Lock()
	defer h.lnMu.Unlock()
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return "", ErrClosed
	}
	if h.srv != nil {
		return "", errors.New("ahphost: already listening")
	}
	srv := &http.Server{
		Handler:           h.Handler(),
		ReadHeaderTimeout: h.opts.HandshakeTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelDebug),
	}
	h.srv = srv
	h.url = h.ConnectURL(ln.Addr().String())
	h.mu.Lock()
	h.hosts.allow(ln.Addr().String())
	h.mu.Unlock()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.log.Error("serve failed", "err", err)
		}
	}()
	if p := h.st.persist; p != nil {
		if err := p.db.SetOwner(ln.Addr().String()); err != nil {
			h.log.Warn("cannot record this host as the state database's owner", "err", err)
		}
	}
	h.scheduleSilence()
	h.log.Info("listening", "addr", ln.Addr().String(), "token", h.Token() != "")
	return h.url, nil
}

// ServerSeq returns the current server-global serverSeq (the seq of the
// last envelope stamped). Tests use it to aim DropAtServerSeq.
func (h *Host) ServerSeq() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.st.seq
}

// Connections returns the number of open client connections.
func (h *Host) Connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// URL returns the connect URL after Listen or Serve ("" before).
func (h *Host) URL() string {
	h.lnMu.Lock()
	defer h.lnMu.Unlock()
	return h.url
}

// Close stops the listener, drops every connection, cancels running turns
// and waits for all of the host's goroutines to finish. It is idempotent.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		h.wg.Wait()
		return nil
	}
	h.closed = true
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.st.cancelAllTurns()
	h.mu.Unlock()
	h.cancel()
	h.lnMu.Lock()
	if h.srv != nil {
		_ = h.srv.Close()
	}
	h.lnMu.Unlock()
	for _, c := range conns {
		c.cancel()
		_ = c.ws.CloseNow()
	}
	h.wg.Wait()
	closeAgents(h.agent, h.log)
	h.closePersist()
	h.mu.Lock()
	h.st.ext.resources.spill.close() // no writer reads an evicted file any more
	h.mu.Unlock()
	return nil
}

// serveHTTP authenticates and upgrades one connection, then runs its reader.
func (h *Host) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if h.refusing() {
		w.Header().Set("Connection", "close")
		http.Error(w, "host outage (fault injection)", http.StatusServiceUnavailable)
		return
	}
	if n := h.active.Add(1); n > int64(h.opts.MaxConnections) {
		h.active.Add(-1)
		h.warnRejected("rejected connection: connection limit reached", "remote", r.RemoteAddr, "limit", h.opts.MaxConnections)
		w.Header().Set("Connection", "close")
		http.Error(w, "too many connections", http.StatusServiceUnavailable)
		return
	}
	defer h.active.Add(-1)
	h.mu.Lock()
	hostOK := h.hosts.ok(r)
	h.mu.Unlock()
	if !hostOK {
		h.warnRejected("rejected connection: Host header not allowed without a token (DNS rebinding?)",
			"remote", r.RemoteAddr, "host", truncate(r.Host, 100))
		w.Header().Set("Connection", "close")
		http.Error(w, "forbidden host", http.StatusForbidden)
		return
	}
	tokenOK, readOnly := h.tokens.allowed(r)
	if !tokenOK {
		h.warnRejected("rejected connection: missing or wrong token", "remote", r.RemoteAddr)
		w.Header().Set("Connection", "close")
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	h.mu.Lock()
	closed := h.closed
	if !closed {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if closed {
		http.Error(w, "host closed", http.StatusServiceUnavailable)
		return
	}
	defer h.wg.Done()
	eof, cork := &wseof.Watch{}, &corkConn{timeout: h.opts.WriteTimeout}
	ws, err := websocket.Accept(watchedWriter{ResponseWriter: w, w: eof, cork: cork}, r, nil)
	if err != nil {
		h.warnRejected("rejected connection: websocket upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	ws.SetReadLimit(h.opts.readLimit())
	c := h.newConn(ws, cork)
	if c == nil {
		_ = ws.CloseNow()
		return
	}
	c.eof = eof
	c.readOnly = readOnly
	h.log.Info("client connected", "conn", c.id, "remote", r.RemoteAddr)
	c.readLoop()
	h.removeConn(c)
	h.log.Info("client disconnected", "conn", c.id)
}

// newConn registers a connection and starts its writer, sweeper and
// keep-alive goroutines.
func (h *Host) newConn(ws *websocket.Conn, cork *corkConn) *conn {
	c := &conn{
		h:    h,
		id:   h.nextConn.Add(1),
		ws:   ws,
		cork: cork,
		q:    newOutQueue(h.opts.QueueBytes),
		subs: make(map[string]subscription),
		reasm: segment.NewReassembler(segment.Limits{
			MaxFrameBytes:   h.opts.readLimit(),
			MaxMessageBytes: h.opts.MaxMessageBytes,
			Budget:          h.reasmBud,
		}, nil),
	}
	c.ctx, c.cancel = context.WithCancel(h.ctx)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		c.cancel()
		return nil
	}
	h.conns[c] = struct{}{}
	h.wg.Add(2)
	keepAlive := h.opts.KeepAlive > 0
	if keepAlive {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	go c.writeLoop()
	go c.sweepLoop()
	// The reader waits with no context (readmsg.go): the connection's end
	// closes the link, which ends the read.
	context.AfterFunc(c.ctx, func() { _ = c.ws.CloseNow() })
	c.initTimer = time.AfterFunc(h.opts.HandshakeTimeout, c.initTimeout)
	if keepAlive {
		go c.keepAliveLoop()
	}
	return c
}

// removeConn unregisters c and releases its resources.
func (h *Host) removeConn(c *conn) {
	c.initTimer.Stop()
	c.cancel()
	_ = c.ws.CloseNow()
	h.mu.Lock()
	delete(h.conns, c)
	h.st.connGone(c)
	h.mu.Unlock()
	c.q.close()
}

// enqueue queues m on c; a client whose queue overflows is closed as a
// slow consumer. The caller holds h.mu (so envelope order matches serverSeq
// order).
func (c *conn) enqueue(m outMsg) {
	if m.at == 0 {
		m.at = c.h.st.seq // the write-ahead rule (persist.go)
	}
	if c.q.push(m) == queueFull {
		c.slowConsumer("outbound queue over budget", "queued", c.h.opts.QueueBytes)
	}
}
