package ahphost

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// SupportedVersions are the version ranges the host accepts, as reported in
// -32005 UnsupportedProtocolVersion data.
var SupportedVersions = []string{">=1.0.0 <2.0.0", ">=0.9.0 <0.10.0"}

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
		if !ok || !(maj == 1 || (maj == 0 && minor == 9)) {
			continue
		}
		key := maj<<40 | minor<<20 | patch
		if key > bestKey {
			best, bestKey = v, key
		}
	}
	return best, bestKey >= 0
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
func (c *conn) initialize(m *ahpwire.Message) (any, func(), *rpcError) {
	var p ahpwire.InitializeParams
	if e := decode(m, &p); e != nil {
		return nil, nil, e
	}
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
	s := c.h.st
	rec := &clientRecord{version: version, caps: nil, views: make(map[string]subscription)}
	if caps != nil {
		rec.caps = p.Capabilities.Chunking
	}
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
	for _, uri := range p.InitialSubscriptions {
		snap, ok := s.snapshot(uri, subscription{})
		if !ok {
			continue
		}
		s.subscribe(c, uri, subscription{})
		res.Snapshots = append(res.Snapshots, snap)
	}
	c.h.log.Info("client initialized", "conn", c.id, "version", version, "chunking", caps != nil,
		"subscriptions", len(res.Snapshots))
	return res, nil, nil
}

// reconnect resumes a known client's subscriptions on a new connection.
func (c *conn) reconnect(m *ahpwire.Message) (any, func(), *rpcError) {
	var p ahpwire.ReconnectParams
	if e := decode(m, &p); e != nil {
		return nil, nil, e
	}
	if c.ready {
		return nil, nil, &rpcError{code: ahpwire.CodeInvalidRequest, msg: "connection already initialized"}
	}
	s := c.h.st
	rec := s.clients[p.ClientID]
	switch {
	case p.ClientID == "" || rec == nil:
		return nil, nil, errInvalidParams("unknown clientId: initialize instead")
	case p.LastSeenServerSeq > s.seq:
		return nil, nil, errInvalidParams("lastSeenServerSeq is ahead of this host: initialize instead")
	}
	// Capabilities on reconnect replace the previous ones; without a
	// capabilities block the previously negotiated ones still apply.
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
	for _, uri := range p.Subscriptions {
		if !s.exists(uri) {
			missing = append(missing, uri)
			continue
		}
		live[uri] = true
		s.subscribe(c, uri, views[uri])
	}
	res := ahpwire.ReconnectResult{Capabilities: c.h.capabilities()}
	if envs, ok := s.replay(p.LastSeenServerSeq, live); ok {
		res.Type = ahpwire.ReconnectReplay
		res.Missing = missing
		res.Actions = make([]ahpwire.ActionEnvelope, 0, len(envs))
		for _, raw := range envs {
			var env ahpwire.ActionEnvelope
			if err := env.UnmarshalJSON(raw); err != nil {
				c.h.log.Error("cannot decode logged envelope", "err", err)
				continue
			}
			res.Actions = append(res.Actions, env)
		}
	} else {
		res.Type = ahpwire.ReconnectSnapshot
		for _, uri := range p.Subscriptions {
			if !live[uri] {
				continue
			}
			if snap, ok := s.snapshot(uri, views[uri]); ok {
				res.Snapshots = append(res.Snapshots, snap)
			}
		}
	}
	c.h.log.Info("client reconnected", "conn", c.id, "type", res.Type, "lastSeen", p.LastSeenServerSeq,
		"serverSeq", s.seq, "actions", len(res.Actions), "missing", len(missing), "chunking", caps != nil)
	return res, nil, nil
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
