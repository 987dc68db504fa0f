package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/wseof"
	"github.com/ahptui/ahptui/segment"
)

// reconnectResultWire is ahpwire.ReconnectResult with the replayed actions
// kept raw, so one undecodable action cannot fail the whole reconnect (it
// is delivered as *ahpwire.UnknownAction, like a live one).
type reconnectResultWire struct {
	Type         string                `json:"type"`
	Actions      []envelopeParams      `json:"actions"`
	Missing      []string              `json:"missing"`
	Snapshots    []ahpwire.Snapshot    `json:"snapshots"`
	Capabilities *ahpwire.Capabilities `json:"capabilities"`
	// Channels is the 1.1 shape (per-channel recovery).
	Channels []channelRecoveryWire `json:"channels"`
}

// channelRecoveryWire is ahpwire.ChannelRecovery with raw actions.
type channelRecoveryWire struct {
	Kind     string            `json:"kind"`
	Channel  string            `json:"channel"`
	Actions  []envelopeParams  `json:"actions"`
	Snapshot *ahpwire.Snapshot `json:"snapshot"`
}

// errReconnectUnusable is a reconnect result the client cannot use (unknown
// type or undecodable): the client falls back to initialize on a fresh
// transport (see connectOnce).
var errReconnectUnusable = errors.New("ahpclient: reconnect result unusable")

// toWireCap converts a segment capability to its wire form.
func toWireCap(c *segment.ChunkingCapability) *ahpwire.ChunkingCapability {
	if c == nil {
		return nil
	}
	w := &ahpwire.ChunkingCapability{MaxIncomingFrameBytes: c.MaxIncomingFrameBytes, MaxIncomingMessageBytes: c.MaxIncomingMessageBytes}
	if c.MaxIncomingGroups > 0 {
		w.MaxIncomingGroups = ahpwire.Ptr(int64(c.MaxIncomingGroups))
	}
	if c.GroupTimeoutMs > 0 {
		w.GroupTimeoutMs = ahpwire.Ptr(c.GroupTimeoutMs)
	}
	return w
}

// fromWireCap converts the host's advertised capability; invalid ones are
// treated as absent (nothing is segmented toward the host).
func fromWireCap(w *ahpwire.Capabilities) *segment.ChunkingCapability {
	if w == nil || w.Chunking == nil {
		return nil
	}
	c := &segment.ChunkingCapability{MaxIncomingFrameBytes: w.Chunking.MaxIncomingFrameBytes, MaxIncomingMessageBytes: w.Chunking.MaxIncomingMessageBytes}
	if w.Chunking.MaxIncomingGroups != nil {
		c.MaxIncomingGroups = int(*w.Chunking.MaxIncomingGroups)
	}
	if w.Chunking.GroupTimeoutMs != nil {
		c.GroupTimeoutMs = *w.Chunking.GroupTimeoutMs
	}
	if c.Validate() != nil {
		return nil
	}
	return c
}

// capabilities is what the client advertises.
// Only chunking and (with 1.1) the steering message list are offered;
// never the experimental flowControl or tcpConnections (the type cannot
// express them).
func (c *Client) capabilities() *ahpwire.Capabilities {
	caps := &ahpwire.Capabilities{SteeringMessages: json.RawMessage(`{}`)}
	if c.cfg.chunking != nil {
		caps.Chunking = toWireCap(c.cfg.chunking)
	}
	return caps
}

// hostCapability returns the host's advertised chunking capability.
func (c *Client) hostCapability() *segment.ChunkingCapability {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hostChunk
}

// dial opens the WebSocket with the token as query parameter and bearer
// header, and sets the read limit to the receive ceiling. The returned
// eofWatch sees the end of the stream under it.
func (c *Client) dial(ctx context.Context) (*websocket.Conn, *wseof.Watch, error) {
	h := http.Header{}
	for k, v := range c.cfg.Header {
		h[k] = append([]string(nil), v...)
	}
	if c.cfg.Token != "" {
		h.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	eof := &wseof.Watch{}
	ws, resp, err := websocket.Dial(ctx, c.cfg.dialURL(), &websocket.DialOptions{HTTPClient: watchedClient(c.cfg.HTTPClient, eof), HTTPHeader: h})
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
			if resp.Body != nil {
				if cerr := resp.Body.Close(); cerr != nil {
					c.log.Debug("close refused handshake response", "err", cerr)
				}
			}
		}
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			ae := &AuthError{StatusCode: status}
			if c.cfg.Token != "" {
				ae.Tried = []string{fmt.Sprintf("the query parameter %q", c.cfg.TokenParam), "an Authorization header (Bearer)"}
			}
			return nil, nil, ae
		}
		inner := err
		var ue *url.Error
		if errors.As(err, &ue) {
			inner = ue.Err
		}
		if s := inner.Error(); c.cfg.mask.String(s) != s {
			inner = errors.New(c.cfg.mask.String(s))
		}
		return nil, nil, &DialError{URL: c.cfg.safeURL(), StatusCode: status, Err: inner}
	}
	ws.SetReadLimit(c.cfg.MaxFrameBytes)
	return ws, eof, nil
}

// connectOnce dials and runs the handshake: reconnect when a previous
// session exists, else initialize. Replay/snapshot effects are applied on
// the reader goroutine before any later frame is processed.
//
// Fallback (PROTOCOL.md Part A §5): when the host refuses reconnect with a
// JSON-RPC error, the client sends initialize (with the old subscriptions)
// on the same connection, which the host has not initialized. When the
// reconnect result is unusable (unknown type, undecodable) the host may
// consider that connection initialized, so it is closed and initialize runs
// on a fresh one; the same happens when the same-connection initialize is
// itself refused. Until a fallback initialize succeeds every further
// attempt goes straight to initialize, so a host that keeps answering
// reconnect with garbage can never make the client loop on reconnect.
func (c *Client) connectOnce(ctx context.Context) (*conn, Recovery, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout)
	defer cancel()
	k, err := c.open(ctx)
	if err != nil {
		return nil, 0, err
	}
	c.mu.Lock()
	resume, reinit := c.initialized, c.needInit
	c.mu.Unlock()
	var rec Recovery
	switch {
	case !resume:
		rec, err = RecoveryNone, c.initialize(ctx, k, initFirst)
	case reinit:
		rec, err = RecoveryReinitialized, c.initialize(ctx, k, initFallback)
	default:
		rec, err = c.reconnect(ctx, k)
		var re *ahpwire.RPCError
		switch {
		case err == nil:
		case errors.As(err, &re):
			c.log.Info("reconnect refused; falling back to initialize", "err", err)
			rec, err = RecoveryReinitialized, c.initialize(ctx, k, initFallback)
			if err != nil && errors.As(err, &re) && !errors.Is(err, ErrUnsupportedVersion) && !errors.Is(err, ErrMessageTooLarge) {
				c.log.Info("initialize refused after reconnect; retrying on a fresh connection", "err", err)
				k, rec, err = c.freshInitialize(ctx, k)
			}
		case errors.Is(err, errReconnectUnusable):
			c.log.Info("reconnect result unusable; initializing on a fresh connection", "err", err)
			k, rec, err = c.freshInitialize(ctx, k)
		}
	}
	if err != nil {
		if k != nil {
			k.fail(err)
			k.wait()
		}
		return nil, 0, err
	}
	k.wg.Add(1)
	go k.heartbeat()
	return k, rec, nil
}

// freshInitialize closes old and runs the fallback initialize on a new
// transport. Until that succeeds, later attempts skip reconnect.
func (c *Client) freshInitialize(ctx context.Context, old *conn) (*conn, Recovery, error) {
	c.mu.Lock()
	c.needInit = true
	c.mu.Unlock()
	old.fail(errReconnectUnusable)
	old.wait()
	k, err := c.open(ctx)
	if err != nil {
		return nil, 0, err
	}
	if err := c.initialize(ctx, k, initFallback); err != nil {
		return k, 0, err
	}
	return k, RecoveryReinitialized, nil
}

// open dials a new transport.
func (c *Client) open(ctx context.Context) (*conn, error) {
	ws, eof, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	return newConn(c, ws, eof), nil
}

// initMode says why initialize runs.
type initMode int

const (
	// initFirst: the first connection; only the root channel.
	initFirst initMode = iota
	// initFallback: reconnect failed; the old subscriptions are asked
	// for again.
	initFallback
)

// initialize runs `initialize`. In initFallback mode the old subscriptions are requested as initialSubscriptions and
// those the host does not return are reported lost. If the host answers
// -32050 MessageTooLarge (their snapshots together are too large for this
// client), it is asked again for the root channel alone on the same
// connection (a refused initialize leaves it uninitialized) and the other
// channels are reported lost: the user can re-subscribe to each, and one
// too large gets its own per-request error.
func (c *Client) initialize(ctx context.Context, k *conn, mode initMode) error {
	root := []string{ahpwire.RootURI}
	if mode == initFirst {
		return c.initializeWith(ctx, k, root, root)
	}
	subs := c.seq.subscriptions()
	if len(subs) == 0 || subs[0] != ahpwire.RootURI {
		subs = append(root, subs...)
	}
	err := c.initializeWith(ctx, k, subs, subs)
	if len(subs) > 1 && errors.Is(err, ErrMessageTooLarge) {
		c.log.Warn("initial snapshots too large; initializing with the root channel only", "channels", len(subs), "err", err)
		return c.initializeWith(ctx, k, root, subs)
	}
	return err
}

// initializeWith runs `initialize` with subs as initialSubscriptions and
// reports the channels of prev the host did not return as lost.
func (c *Client) initializeWith(ctx context.Context, k *conn, subs, prev []string) error {
	info := c.cfg.ClientInfo
	p := ahpwire.InitializeParams{
		Channel:              ahpwire.RootURI,
		ProtocolVersions:     append([]string(nil), ProtocolVersions...),
		ClientID:             c.clientID,
		ClientInfo:           &info,
		InitialSubscriptions: subs,
		Capabilities:         c.capabilities(),
	}
	var hookErr error
	var res ahpwire.InitializeResult
	hook := func(m *ahpwire.Message) {
		if m.Error != nil {
			return
		}
		if err := m.DecodeResult(&res); err != nil {
			hookErr = &ProtocolError{Detail: "initialize result", Err: err}
			return
		}
		if !slices.Contains(ProtocolVersions, res.ProtocolVersion) {
			// Nothing of this result is applied; the host considers the
			// connection initialized, so the caller closes it.
			hookErr = &VersionError{Offered: append([]string(nil), ProtocolVersions...), Chosen: res.ProtocolVersion}
			return
		}
		k.hostCap.Store(fromWireCap(res.Capabilities))
		c.seq.reinitialized(res.ServerSeq)
		got := make(map[string]bool, len(res.Snapshots))
		for _, s := range res.Snapshots {
			got[s.Resource] = true
			c.seq.setSnapshot(s.Resource, s.FromSeq)
			c.emit(SnapshotEvent{Snapshot: s, Reason: SnapshotInitialize}, dataEventNoWait)
		}
		for _, ch := range prev {
			if !got[ch] && ch != ahpwire.RootURI {
				c.refs.forget(ch)
				c.emit(ChannelLostEvent{Channel: ch}, dataEventNoWait)
			}
		}
		if !got[ahpwire.RootURI] {
			c.seq.setSnapshot(ahpwire.RootURI, res.ServerSeq)
		}
	}
	_, err := k.call(ctx, ahpwire.MethodInitialize, p, hook)
	if err != nil {
		var re *ahpwire.RPCError
		if errors.As(err, &re) && re.Code == ahpwire.CodeUnsupportedProtocolVersion {
			return c.versionRefused(re)
		}
		return rpcFailure("initialize", err)
	}
	if hookErr != nil {
		return hookErr
	}

	c.mu.Lock()
	c.initialized, c.needInit = true, false
	c.hostChunk = k.hostCap.Load()
	c.version = res.ProtocolVersion
	c.features = featuresOf(res)
	c.mu.Unlock()
	c.log.Info("initialized", "protocolVersion", res.ProtocolVersion, "serverSeq", res.ServerSeq, "hostChunking", res.Capabilities != nil && res.Capabilities.Chunking != nil)
	return nil
}

// versionRefused turns a -32005 answer into a *VersionError; data (the
// host's supported versions) is optional and may be malformed.
func (c *Client) versionRefused(re *ahpwire.RPCError) error {
	var d ahpwire.UnsupportedVersionData
	if len(re.Data) > 0 {
		if err := json.Unmarshal(re.Data, &d); err != nil {
			c.log.Warn("unsupported-version error with unreadable data", "err", err)
		}
	}
	msg := re.Message
	if msg != "" {
		msg = c.maskErr(errors.New(msg)).Error() // a host may reflect the token
	}
	return &VersionError{Offered: append([]string(nil), ProtocolVersions...), Supported: d.SupportedVersions, Message: msg}
}

// reconnect runs `reconnect` and applies its replay or snapshots.
func (c *Client) reconnect(ctx context.Context, k *conn) (Recovery, error) {
	subs := c.seq.subscriptions()
	last := c.seq.lastSeen()
	p := ahpwire.ReconnectParams{
		Channel:           ahpwire.RootURI,
		ClientID:          c.clientID,
		LastSeenServerSeq: last,
		Subscriptions:     subs,
		Capabilities:      c.capabilities(),
	}
	c.mu.Lock()
	perChannel := versionAtLeast(c.version, 1, 1)
	c.mu.Unlock()
	if perChannel { // 1.1: each channel recovers from its own cursor
		p.Cursors, p.Subscriptions, p.LastSeenServerSeq = c.seq.cursors(subs), nil, 0
	}
	var rec Recovery
	var hookErr error
	hook := func(m *ahpwire.Message) {
		if m.Error != nil {
			return
		}
		var res reconnectResultWire
		if err := m.DecodeResult(&res); err != nil {
			hookErr = fmt.Errorf("%w: %w", errReconnectUnusable, &ProtocolError{Detail: "reconnect result", Err: err})
			return
		}
		if cp := fromWireCap(res.Capabilities); cp != nil {
			k.hostCap.Store(cp)
		}
		switch {
		case res.Channels != nil:
			rec = c.recoverChannels(res.Channels, subs)
		case res.Type == ahpwire.ReconnectSnapshot:
			rec = RecoverySnapshot
			got := make(map[string]bool, len(res.Snapshots))
			for _, s := range res.Snapshots {
				got[s.Resource] = true
				c.seq.setSnapshot(s.Resource, s.FromSeq)
				c.emit(SnapshotEvent{Snapshot: s, Reason: SnapshotReconnect}, dataEventNoWait)
			}
			for _, ch := range subs {
				if !got[ch] {
					c.lose(ch)
				}
			}
		case res.Type == ahpwire.ReconnectReplay:
			rec = RecoveryReplay
			missing := make(map[string]bool, len(res.Missing))
			for _, ch := range res.Missing {
				missing[ch] = true
				c.lose(ch)
			}
			c.replayed(res.Actions, func(ch string) bool { return !missing[ch] })
		default:
			hookErr = fmt.Errorf("%w: type %.40q", errReconnectUnusable, res.Type)
		}
	}
	_, err := k.call(ctx, ahpwire.MethodReconnect, p, hook)
	if err != nil {
		return 0, rpcFailure("reconnect", err)
	}
	if hookErr != nil {
		return 0, hookErr
	}
	c.mu.Lock()
	c.hostChunk = k.hostCap.Load()
	c.mu.Unlock()
	c.log.Info("reconnected", "lastSeenServerSeq", last, "recovery", rec.String())
	return rec, nil
}

// activate makes k the live connection: held dispatches are sent (in
// clientSeq order, before any new one), the state becomes Connected, and the
// session list is refreshed.
func (c *Client) activate(k *conn, rec Recovery) {
	processed := c.seq.processedSeq()
	c.sendMu.Lock()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		c.sendMu.Unlock()
		return
	}
	select {
	case <-k.done: // died before activation; the supervisor handles it
		c.mu.Unlock()
		c.sendMu.Unlock()
		return
	default:
	}
	c.cur = k
	ver := c.version
	hc := c.hostChunk != nil
	c.oversizeResetIfProgress(processed)
	c.mu.Unlock()
	for _, e := range c.ob.withStatus(OutboxHeld) {
		c.sendEntry(k, e)
	}
	c.sendMu.Unlock()
	c.setState(ConnState{Phase: Connected, ProtocolVersion: ver, Recovery: rec, HostChunking: hc})
	if c.cfg.SessionsLimit > 0 {
		ctx, cancel := context.WithTimeout(k.ctx, c.requestTimeout())
		res, err := c.listSessions(ctx, k, c.cfg.SessionsLimit, "", byClient)
		cancel()
		if err != nil && k.ctx.Err() != nil {
			return // the link dropped again; the next activation refreshes
		}
		c.emit(SessionsEvent{Result: res, Err: c.maskErr(err)}, dataEventNoWait)
	}
}
