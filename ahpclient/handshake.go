package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
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
}

// errReconnectUnusable is a reconnect result of an unknown type: the
// client falls back to initialize as for a JSON-RPC error.
var errReconnectUnusable = errors.New("ahpclient: reconnect result of unknown type")

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
func (c *Client) capabilities() *ahpwire.Capabilities {
	if c.cfg.chunking == nil {
		return nil
	}
	return &ahpwire.Capabilities{Chunking: toWireCap(c.cfg.chunking)}
}

// hostCapability returns the host's advertised chunking capability.
func (c *Client) hostCapability() *segment.ChunkingCapability {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hostChunk
}

// dial opens the WebSocket with the token as query parameter and bearer
// header, and sets the read limit to the receive ceiling.
func (c *Client) dial(ctx context.Context) (*websocket.Conn, error) {
	h := http.Header{}
	for k, v := range c.cfg.Header {
		h[k] = append([]string(nil), v...)
	}
	if c.cfg.Token != "" {
		h.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	ws, resp, err := websocket.Dial(ctx, c.cfg.dialURL(), &websocket.DialOptions{HTTPClient: c.cfg.HTTPClient, HTTPHeader: h})
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
			if resp.Body != nil {
				_ = resp.Body.Close()
			}
		}
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			return nil, &AuthError{StatusCode: status}
		}
		inner := err
		var ue *url.Error
		if errors.As(err, &ue) {
			inner = ue.Err
		}
		if s := inner.Error(); c.cfg.mask.mask(s) != s {
			inner = errors.New(c.cfg.mask.mask(s))
		}
		return nil, &DialError{URL: c.cfg.safeURL(), StatusCode: status, Err: inner}
	}
	ws.SetReadLimit(c.cfg.MaxFrameBytes)
	return ws, nil
}

// connectOnce dials and runs the handshake: reconnect when a previous
// session exists (falling back to initialize on a JSON-RPC error), else
// initialize. Replay/snapshot effects are applied on the reader goroutine
// before any later frame is processed.
func (c *Client) connectOnce(ctx context.Context) (*conn, Recovery, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout)
	defer cancel()
	ws, err := c.dial(ctx)
	if err != nil {
		return nil, 0, err
	}
	k := newConn(c, ws)
	rec, err := c.handshake(ctx, k)
	if err != nil {
		k.fail(err)
		k.wait()
		return nil, 0, err
	}
	k.wg.Add(1)
	go k.heartbeat()
	return k, rec, nil
}

// handshake runs reconnect or initialize on k.
func (c *Client) handshake(ctx context.Context, k *conn) (Recovery, error) {
	c.mu.Lock()
	resume := c.initialized
	c.mu.Unlock()
	if resume {
		rec, err := c.reconnect(ctx, k)
		var re *ahpwire.RPCError
		if err == nil || (!errors.As(err, &re) && !errors.Is(err, errReconnectUnusable)) {
			return rec, err
		}
		c.log.Info("reconnect refused; falling back to initialize", "err", err)
		if err := c.initialize(ctx, k, true); err != nil {
			return 0, err
		}
		return RecoveryReinitialized, nil
	}
	return RecoveryNone, c.initialize(ctx, k, false)
}

// initialize runs `initialize`. With again set (fallback after a failed
// reconnect) the old subscriptions are requested as initialSubscriptions and
// those the host does not return are reported lost.
func (c *Client) initialize(ctx context.Context, k *conn, again bool) error {
	subs := []string{ahpwire.RootURI}
	if again {
		subs = c.seq.subscriptions()
		if len(subs) == 0 || subs[0] != ahpwire.RootURI {
			subs = append([]string{ahpwire.RootURI}, subs...)
		}
	}
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
		k.hostCap.Store(fromWireCap(res.Capabilities))
		c.seq.reinitialized(res.ServerSeq)
		got := make(map[string]bool, len(res.Snapshots))
		for _, s := range res.Snapshots {
			got[s.Resource] = true
			c.seq.setSnapshot(s.Resource, s.FromSeq)
			_ = c.q.push(k.ctx, SnapshotEvent{Snapshot: s, Reason: SnapshotInitialize}, true, true)
		}
		for _, ch := range subs {
			if !got[ch] && ch != ahpwire.RootURI {
				_ = c.q.push(k.ctx, ChannelLostEvent{Channel: ch}, true, true)
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
			var d ahpwire.UnsupportedVersionData
			if len(re.Data) > 0 {
				_ = json.Unmarshal(re.Data, &d)
			}
			return &VersionError{Offered: append([]string(nil), ProtocolVersions...), Supported: d.SupportedVersions, Message: re.Message}
		}
		return fmt.Errorf("ahpclient: initialize: %w", err)
	}
	if hookErr != nil {
		return hookErr
	}
	c.mu.Lock()
	c.initialized = true
	c.hostChunk = k.hostCap.Load()
	c.version = res.ProtocolVersion
	c.mu.Unlock()
	c.log.Info("initialized", "protocolVersion", res.ProtocolVersion, "serverSeq", res.ServerSeq, "hostChunking", res.Capabilities != nil && res.Capabilities.Chunking != nil)
	return nil
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
	var rec Recovery
	var hookErr error
	hook := func(m *ahpwire.Message) {
		if m.Error != nil {
			return
		}
		var res reconnectResultWire
		if err := m.DecodeResult(&res); err != nil {
			hookErr = &ProtocolError{Detail: "reconnect result", Err: err}
			return
		}
		if cp := fromWireCap(res.Capabilities); cp != nil {
			k.hostCap.Store(cp)
		}
		switch res.Type {
		case ahpwire.ReconnectSnapshot:
			rec = RecoverySnapshot
			got := make(map[string]bool, len(res.Snapshots))
			for _, s := range res.Snapshots {
				got[s.Resource] = true
				c.seq.setSnapshot(s.Resource, s.FromSeq)
				_ = c.q.push(k.ctx, SnapshotEvent{Snapshot: s, Reason: SnapshotReconnect}, true, true)
			}
			for _, ch := range subs {
				if !got[ch] {
					c.seq.drop(ch)
					_ = c.q.push(k.ctx, ChannelLostEvent{Channel: ch}, true, true)
				}
			}
		case ahpwire.ReconnectReplay:
			rec = RecoveryReplay
			missing := make(map[string]bool, len(res.Missing))
			for _, ch := range res.Missing {
				missing[ch] = true
				c.seq.drop(ch)
				_ = c.q.push(k.ctx, ChannelLostEvent{Channel: ch}, true, true)
			}
			for i := range res.Actions {
				p := &res.Actions[i]
				if missing[p.Channel] {
					continue
				}
				env, err := p.header()
				if err != nil {
					c.log.Warn("replayed action envelope ignored", "serverSeq", p.ServerSeq, "err", err)
					c.seq.noteProcessed(p.ServerSeq)
					continue
				}
				c.onEnvelope(c.ctx, env, p.Action, true, true)
			}
		default:
			hookErr = errReconnectUnusable
		}
	}
	_, err := k.call(ctx, ahpwire.MethodReconnect, p, hook)
	if err != nil {
		return 0, fmt.Errorf("ahpclient: reconnect: %w", err)
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
	c.oversizeResetIfProgress()
	c.mu.Unlock()
	for _, e := range c.ob.withStatus(OutboxHeld) {
		c.sendEntry(k, e)
	}
	c.sendMu.Unlock()
	c.setState(ConnState{Phase: Connected, ProtocolVersion: ver, Recovery: rec, HostChunking: hc})
	if c.cfg.SessionsLimit > 0 {
		ctx, cancel := context.WithTimeout(k.ctx, c.requestTimeout())
		res, err := c.listSessions(ctx, k, c.cfg.SessionsLimit, "")
		cancel()
		if err != nil && k.ctx.Err() != nil {
			return // the link dropped again; the next activation refreshes
		}
		_ = c.q.push(c.ctx, SessionsEvent{Result: res, Err: c.maskErr(err)}, true, true)
	}
}
