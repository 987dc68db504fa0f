package segment

import (
	"fmt"
	"time"
)

// Method is the JSON-RPC method name of the segment control notification.
const Method = "ahp/messageSegment"

// CloseCode is the WebSocket close code a transport uses after a
// [*ViolationError].
const CloseCode = 4400

// CloseReason is the WebSocket close reason a transport uses after a
// [*ViolationError].
const CloseReason = "invalid messageSegment"

// CodeMessageTooLarge is the JSON-RPC error code for MessageTooLarge in this
// project (the RFC's -32011 is AHP's Conflict); its data is {size, limit}.
const CodeMessageTooLarge = -32050

// Default limits (PROTOCOL.md Part A §2).
const (
	// DefaultMaxFrameBytes is maxIncomingFrameBytes on direct connections (16 MiB).
	DefaultMaxFrameBytes int64 = 16 << 20
	// RelayMaxFrameBytes is maxIncomingFrameBytes on the relay profile.
	RelayMaxFrameBytes int64 = 900000
	// DefaultMaxMessageBytes is maxIncomingMessageBytes (32 MiB).
	DefaultMaxMessageBytes int64 = 32 << 20
	// DefaultMaxGroups is maxIncomingGroups when omitted.
	DefaultMaxGroups = 8
	// DefaultGroupTimeoutMs is groupTimeoutMs when omitted.
	DefaultGroupTimeoutMs int64 = 30000
	// MaxGroupIDBytes is the RFC's cap on groupId length in UTF-8 bytes.
	MaxGroupIDBytes = 128
	// MaxTotal is the exclusive upper bound of total (2^16).
	MaxTotal = 1 << 16
	// MaxIndex is the exclusive upper bound of index (2^31).
	MaxIndex = 1 << 31
)

// ChunkingCapability is capabilities.chunking as advertised in
// InitializeParams, InitializeResult and ReconnectParams. It describes what
// the advertising side is willing to receive.
type ChunkingCapability struct {
	// MaxIncomingFrameBytes is the largest transport frame (envelope included)
	// the advertiser accepts, segmented or not.
	MaxIncomingFrameBytes int64 `json:"maxIncomingFrameBytes"`
	// MaxIncomingMessageBytes is the largest reassembled message the advertiser
	// accepts; it must be ≥ MaxIncomingFrameBytes.
	MaxIncomingMessageBytes int64 `json:"maxIncomingMessageBytes"`
	// MaxIncomingGroups is the number of concurrent reassembly groups the
	// advertiser holds; 0 (omitted) means the implementation default.
	MaxIncomingGroups int `json:"maxIncomingGroups,omitempty"`
	// GroupTimeoutMs is how long an incomplete group is kept; 0 (omitted)
	// means the implementation default.
	GroupTimeoutMs int64 `json:"groupTimeoutMs,omitempty"`
}

// DefaultCapability returns the direct-connection defaults.
func DefaultCapability() ChunkingCapability {
	return ChunkingCapability{
		MaxIncomingFrameBytes:   DefaultMaxFrameBytes,
		MaxIncomingMessageBytes: DefaultMaxMessageBytes,
		MaxIncomingGroups:       DefaultMaxGroups,
		GroupTimeoutMs:          DefaultGroupTimeoutMs,
	}
}

// RelayCapability returns the relay-profile defaults (900000-byte frames).
func RelayCapability() ChunkingCapability {
	c := DefaultCapability()
	c.MaxIncomingFrameBytes = RelayMaxFrameBytes
	return c
}

// Validate reports whether c is a usable capability: positive frame and
// message limits, maxIncomingMessageBytes ≥ maxIncomingFrameBytes, and
// non-negative optional fields. 0 in an optional field means "omitted, use
// the receiver's default" (after JSON decoding an explicit 0 cannot be told
// apart from an omitted field); it never means unbounded.
func (c ChunkingCapability) Validate() error {
	switch {
	case c.MaxIncomingFrameBytes <= 0:
		return fmt.Errorf("segment: chunking capability: maxIncomingFrameBytes %d must be > 0", c.MaxIncomingFrameBytes)
	case c.MaxIncomingMessageBytes <= 0:
		return fmt.Errorf("segment: chunking capability: maxIncomingMessageBytes %d must be > 0", c.MaxIncomingMessageBytes)
	case c.MaxIncomingMessageBytes < c.MaxIncomingFrameBytes:
		return fmt.Errorf("segment: chunking capability: maxIncomingMessageBytes %d must be ≥ maxIncomingFrameBytes %d",
			c.MaxIncomingMessageBytes, c.MaxIncomingFrameBytes)
	case c.MaxIncomingGroups < 0:
		return fmt.Errorf("segment: chunking capability: maxIncomingGroups %d must be ≥ 1", c.MaxIncomingGroups)
	case c.GroupTimeoutMs < 0:
		return fmt.Errorf("segment: chunking capability: groupTimeoutMs %d must be ≥ 1", c.GroupTimeoutMs)
	}
	return nil
}

// Limits are the effective, always finite receive limits.
type Limits struct {
	// MaxFrameBytes bounds every frame and every decoded segment.
	MaxFrameBytes int64
	// MaxMessageBytes bounds a reassembled message.
	MaxMessageBytes int64
	// MaxGroups bounds concurrent in-flight groups.
	MaxGroups int
	// GroupTimeout is how long an incomplete group is kept before Sweep drops it.
	GroupTimeout time.Duration
	// Budget, if set, is the byte budget shared with other Reassemblers
	// (e.g. every connection of a host) that group buffers are drawn from.
	Budget *Budget
}

// DefaultLimits returns the limits of [DefaultCapability].
func DefaultLimits() Limits { return DefaultCapability().Limits() }

// Limits converts c into effective limits. Omitted (zero or negative) fields
// take the defaults; the result is never unbounded.
func (c ChunkingCapability) Limits() Limits {
	l := Limits{
		MaxFrameBytes:   c.MaxIncomingFrameBytes,
		MaxMessageBytes: c.MaxIncomingMessageBytes,
		MaxGroups:       c.MaxIncomingGroups,
		GroupTimeout:    time.Duration(c.GroupTimeoutMs) * time.Millisecond,
	}
	return l.normalized()
}

// normalized replaces unset fields with defaults.
func (l Limits) normalized() Limits {
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if l.MaxGroups <= 0 {
		l.MaxGroups = DefaultMaxGroups
	}
	if l.GroupTimeout <= 0 {
		l.GroupTimeout = time.Duration(DefaultGroupTimeoutMs) * time.Millisecond
	}
	return l
}
