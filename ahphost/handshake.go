package ahphost

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// SupportedVersions are the version ranges the host accepts, as reported in
// -32005 UnsupportedProtocolVersion data.
// 1.1.0 is offered since every 1.1 feature is served: per-channel
// reconnect cursors (reconnect11.go), the steering message list and the
// session artifacts and model vendor (carried through the reducers).
var SupportedVersions = []string{">=1.0.0 <1.2.0", ">=0.9.0 <0.10.0"}

// ServerName and ServerVersion form InitializeResult.serverInfo.
const (
	ServerName    = "ahptui-host"
	ServerVersion = "0.1.0"
)

// negotiateVersion picks the highest offered version in a supported range
// and returns it exactly as offered.
func negotiateVersion(offered []string) (string, bool) {
	best, bestKey := "", -1
	for _, v := range offered {
		maj, minor, patch, ok := parseSemver(v)
		if !ok || !((maj == 1 && minor <= 1) || (maj == 0 && minor == 9)) {
			continue
		}
		key := maj<<40 | minor<<20 | patch
		if key > bestKey {
			best, bestKey = v, key
		}
	}
	return best, bestKey >= 0
}

// atLeast11 reports whether a negotiated version is 1.1.0 or later.
func atLeast11(v string) bool {
	maj, minor, _, ok := parseSemver(v)
	return ok && (maj > 1 || maj == 1 && minor >= 1)
}

// parseSemver parses MAJOR.MINOR.PATCH (no pre-release or build suffix).
func parseSemver(v string) (maj, minor, patch int, ok bool) {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return 0, 0, 0, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || len(p) > 6 || (len(p) > 1 && p[0] == '0') {
			return 0, 0, 0, false
		}
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return 0, 0, 0, false
		}
		n[i] = x
	}
	return n[0], n[1], n[2], true
}

// initialize negotiates the version and capabilities and returns the
// initial snapshots.
func (c *conn) initialize(p *ahpwire.InitializeParams) (any, func(), *rpcError) {
	if c.ready {
		return nil, nil, &rpcError{code: ahpwire.CodeInvalidRequest, msg: "connection already initialized"}
	}
	version, ok := negotiateVersion(p.ProtocolVersions)
	if !ok {
		c.h.log.Info("unsupported protocol versions; closing", "conn", c.id, "offered", truncate(strings.Join(p.ProtocolVersions, ","), 200))
		return nil, nil, &rpcError{
			code:       ahpwire.CodeUnsupportedProtocolVersion,
			msg:        "unsupported protocol version",
			data:       ahpwire.UnsupportedVersionData{SupportedVersions: SupportedVersions},
			closeAfter: "unsupported protocol version",
		}
	}
	if p.ClientID == "" || len(p.ClientID) > 256 {
		return nil, nil, errInvalidParams("clientId must be a non-empty string of at most 256 bytes")
	}
	caps, e := clientChunking(p.Capabilities)
	if e != nil {
		return nil, nil, e
	}
	subs, e := c.h.uniqueSubscriptions(p.InitialSubscriptions)
	if e != nil {
		return nil, nil, e
	}
	s := c.h.st
	rec := &clientRecord{version: version, caps: nil, views: make(map[string]subscription)}
	if caps != nil {
		rec.caps = p.Capabilities.Chunking
	}
	prev, hadPrev := s.clients[p.ClientID]
	s.clients[p.ClientID] = rec
	c.clientID, c.version, c.ready = p.ClientID, version, true
	c.recvCap.Store(caps)
	res := ahpwire.InitializeResult{
		ProtocolVersion:  version,
		ServerSeq:        s.seq,
		ServerInfo:       &ahpwire.Implementation{Name: ServerName, Version: ServerVersion},
		Capabilities:     c.h.capabilities(),
		DefaultDirectory: fileURI(c.h.opts.Dir),
	}
	c.h.composerFeatures(&res)
	if atLeast11(version) && p.Capabilities != nil && p.Capabilities.SteeringMessages != nil {
		res.Capabilities.SteeringMessages = json.RawMessage(`{}`) // both sides: the 1.1 steering list
	}
	var refs []snapRef
	for _, uri := range subs {
		ref, ok := s.snapshot(uri, subscription{})
		if !ok {
			continue
		}
		s.subscribe(c, uri, subscription{})
		refs = append(refs, ref)
	}
	c.h.log.Info("client initialized", "conn", c.id, "version", version, "chunking", caps != nil,
		"subscriptions", len(refs))
	clientID := p.ClientID
	return &deferred{
		light: lightRefs(refs),
		build: func(limit int64) (any, error) {
			snaps, _, err := encodeSnapshots(refs, limit)
			res.Snapshots = snaps
			return res, err
		},
		rollback: func() {
			c.undoHandshake()
			if hadPrev {
				s.clients[clientID] = prev
			} else {
				delete(s.clients, clientID)
			}
		},
	}, nil, nil
}

// uniqueSubscriptions removes duplicates from a handshake's subscription
// list (keeping the first occurrence) and enforces MaxSubscriptions, so a
// small request cannot make the host build many copies of one snapshot.
func (h *Host) uniqueSubscriptions(uris []string) ([]string, *rpcError) {
	limit := h.opts.MaxSubscriptions
	tooMany := errInvalidParams("too many subscriptions (max " + strconv.Itoa(limit) + ")")
	// Duplicates never count: the list (bounded by MaxRequestParamsBytes)
	// is walked once, and refused as soon as one URI past the limit is new.
	seen := make(map[string]bool, min(len(uris), limit))
	out := make([]string, 0, min(len(uris), limit))
	for _, u := range uris {
		if !seen[u] {
			if len(out) == limit {
				return nil, tooMany
			}
			seen[u] = true
			out = append(out, u)
		}
	}
	return out, nil
}

// reconnect resumes a known client's subscriptions on a new connection.
func (c *conn) reconnect(p *ahpwire.ReconnectParams) (any, func(), *rpcError) {
	if c.ready {
		return nil, nil, &rpcError{code: ahpwire.CodeInvalidRequest, msg: "connection already initialized"}
	}
	s := c.h.st
	requested := p.Subscriptions
	if p.Cursors != nil { // 1.1: one cursor per channel
		requested = make([]string, 0, len(p.Cursors))
		for _, cur := range p.Cursors {
			if cur.LastSeenServerSeq > s.seq {
				return nil, nil, errInvalidParams("lastSeenServerSeq of " + truncate(cur.Channel, 200) + " is ahead of this host: initialize instead")
			}
			requested = append(requested, cur.Channel)
		}
	}
	subs, e := c.h.uniqueSubscriptions(requested)
	if e != nil {
		return nil, nil, e
	}
	rec := s.clients[p.ClientID]
	switch {
	case p.ClientID == "" || rec == nil:
		return nil, nil, errInvalidParams("unknown clientId: initialize instead")
	case p.LastSeenServerSeq > s.seq:
		return nil, nil, errInvalidParams("lastSeenServerSeq is ahead of this host: initialize instead")
	}
	// Capabilities on reconnect replace the previous ones; without a
	// capabilities block the previously negotiated ones still apply.
	oldCaps := rec.caps
	if p.Capabilities != nil {
		caps, e := clientChunking(p.Capabilities)
		if e != nil {
			return nil, nil, e
		}
		rec.caps = nil
		if caps != nil {
			rec.caps = p.Capabilities.Chunking
		}
	}
	caps, _ := clientChunking(&ahpwire.Capabilities{Chunking: rec.caps})
	c.clientID, c.version, c.ready = p.ClientID, rec.version, true
	c.recvCap.Store(caps)

	views := rec.views
	rec.views = make(map[string]subscription)
	live := make(map[string]bool)
	var missing []string
	for _, uri := range subs {
		if !s.exists(uri) {
			missing = append(missing, uri)
			continue
		}
		live[uri] = true
		s.subscribe(c, uri, views[uri])
	}
	rollback := func() {
		c.undoHandshake()
		rec.caps, rec.views = oldCaps, views
	}
	hostCaps := c.h.capabilities()
	if p.Cursors != nil {
		return c.recoverChannels(p.Cursors, live, views, hostCaps, rollback), nil, nil
	}
	// Snapshot refs are cheap to capture (no encoding); a replay that turns
	// out larger than the peer accepts falls back to them.
	var refs []snapRef
	for _, uri := range subs {
		if !live[uri] {
			continue
		}
		if ref, ok := s.snapshot(uri, views[uri]); ok {
			refs = append(refs, ref)
		}
	}
	snapshots := func(limit int64) (any, error) {
		snaps, _, err := encodeSnapshots(refs, limit)
		return ahpwire.ReconnectResult{Type: ahpwire.ReconnectSnapshot, Snapshots: snaps, Capabilities: hostCaps}, err
	}
	envs, replayable := s.replay(p.LastSeenServerSeq, live)
	kind := ahpwire.ReconnectSnapshot
	if replayable {
		kind = ahpwire.ReconnectReplay
	}
	c.h.log.Info("client reconnected", "conn", c.id, "type", kind, "lastSeen", p.LastSeenServerSeq,
		"serverSeq", s.seq, "actions", len(envs), "snapshots", len(refs), "missing", len(missing), "chunking", caps != nil)
	if !replayable {
		return &deferred{light: lightRefs(refs), build: snapshots, rollback: rollback}, nil, nil
	}
	var replayBytes int
	for _, e := range envs {
		replayBytes += len(e)
	}
	if missing == nil {
		missing = []string{}
	}
	if envs == nil {
		envs = []json.RawMessage{} // "actions": [], never null
	}
	return &deferred{
		light: replayBytes < 1<<20 && lightRefs(refs),
		build: func(limit int64) (any, error) {
			var total int64
			for _, e := range envs {
				if total += int64(len(e)) + 1; total > limit-1024 {
					return snapshots(limit)
				}
			}
			return replayResult{Type: ahpwire.ReconnectReplay, Actions: envs, Missing: missing, Capabilities: hostCaps}, nil
		},
		rollback: rollback,
	}, nil, nil
}

// replayResult is a replay ReconnectResult whose envelopes are the replay
// log's bytes, copied as they are (never decoded and re-encoded).
type replayResult struct {
	Type         string                `json:"type"`
	Actions      []json.RawMessage     `json:"actions"`
	Missing      []string              `json:"missing"`
	Capabilities *ahpwire.Capabilities `json:"capabilities,omitempty"`
}

// clientChunking validates a client's chunking capability and converts it.
func clientChunking(caps *ahpwire.Capabilities) (*segment.ChunkingCapability, *rpcError) {
	if caps == nil || caps.Chunking == nil {
		return nil, nil
	}
	ch := caps.Chunking
	sc := segment.ChunkingCapability{
		MaxIncomingFrameBytes:   ch.MaxIncomingFrameBytes,
		MaxIncomingMessageBytes: ch.MaxIncomingMessageBytes,
	}
	if ch.MaxIncomingGroups != nil {
		sc.MaxIncomingGroups = int(*ch.MaxIncomingGroups)
	}
	if ch.GroupTimeoutMs != nil {
		sc.GroupTimeoutMs = *ch.GroupTimeoutMs
	}
	if err := sc.Validate(); err != nil {
		return nil, errInvalidParams("invalid capabilities.chunking: " + err.Error())
	}
	if sc.MaxIncomingFrameBytes < 256 {
		return nil, errInvalidParams("invalid capabilities.chunking: maxIncomingFrameBytes below 256")
	}
	return &sc, nil
}

// capabilities is the host's InitializeResult/ReconnectResult capabilities.
func (h *Host) capabilities() *ahpwire.Capabilities {
	sc := h.opts.capability()
	groups := int64(sc.MaxIncomingGroups)
	timeout := sc.GroupTimeoutMs
	return &ahpwire.Capabilities{Chunking: &ahpwire.ChunkingCapability{
		MaxIncomingFrameBytes:   sc.MaxIncomingFrameBytes,
		MaxIncomingMessageBytes: sc.MaxIncomingMessageBytes,
		MaxIncomingGroups:       &groups,
		GroupTimeoutMs:          &timeout,
	}}
}

// fileURI converts an absolute path to a file:// URI.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: path}).String()
}
