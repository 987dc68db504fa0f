package ahpwire

import "encoding/json"

// JSON-RPC method names.
const (
	MethodInitialize     = "initialize"
	MethodReconnect      = "reconnect"
	MethodPing           = "ping"
	MethodSubscribe      = "subscribe"
	MethodUnsubscribe    = "unsubscribe"
	MethodDispatchAction = "dispatchAction"
	MethodAction         = "action"
	MethodListSessions   = "listSessions"
	MethodCreateSession  = "createSession"
	MethodDisposeSession = "disposeSession"
	MethodCreateChat     = "createChat"
	MethodDisposeChat    = "disposeChat"
	MethodFetchTurns     = "fetchTurns"
	MethodAuthenticate   = "authenticate"

	MethodSessionAdded          = "root/sessionAdded"
	MethodSessionRemoved        = "root/sessionRemoved"
	MethodSessionSummaryChanged = "root/sessionSummaryChanged"
	MethodProgress              = "root/progress"
	MethodAuthRequired          = "auth/required"

	// MethodMessageSegment is the segmenting control notification (Part A §2).
	MethodMessageSegment = "ahp/messageSegment"
)

// ChunkingCapability advertises segmenting limits (Part A §2). It mirrors
// the segment package's capability without importing it.
type ChunkingCapability struct {
	MaxIncomingFrameBytes   int64  `json:"maxIncomingFrameBytes"`
	MaxIncomingMessageBytes int64  `json:"maxIncomingMessageBytes"`
	MaxIncomingGroups       *int64 `json:"maxIncomingGroups,omitempty"`
	GroupTimeoutMs          *int64 `json:"groupTimeoutMs,omitempty"`
}

// Capabilities are presence flags exchanged at initialize/reconnect.
// Unknown capabilities are ignored.
type Capabilities struct {
	Chunking         *ChunkingCapability `json:"chunking,omitempty"`
	McpApps          json.RawMessage     `json:"mcpApps,omitempty"`
	SteeringMessages json.RawMessage     `json:"steeringMessages,omitempty"`
}

// ChannelParams is the params of commands that only name a channel
// (ping, unsubscribe, disposeSession, disposeChat).
type ChannelParams struct {
	Channel string `json:"channel"`
	Meta    Meta   `json:"_meta,omitempty"`
}

// InitializeParams is the params of `initialize`.
type InitializeParams struct {
	Channel              string          `json:"channel"`
	ProtocolVersions     []string        `json:"protocolVersions"`
	ClientID             string          `json:"clientId"`
	ClientInfo           *Implementation `json:"clientInfo,omitempty"`
	InitialSubscriptions []string        `json:"initialSubscriptions,omitempty"`
	Locale               string          `json:"locale,omitempty"`
	Capabilities         *Capabilities   `json:"capabilities,omitempty"`
	Meta                 Meta            `json:"_meta,omitempty"`
}

// InitializeResult is the result of `initialize`.
type InitializeResult struct {
	ProtocolVersion             string          `json:"protocolVersion"`
	ServerSeq                   uint64          `json:"serverSeq"`
	Snapshots                   []Snapshot      `json:"snapshots"`
	ServerInfo                  *Implementation `json:"serverInfo,omitempty"`
	Capabilities                *Capabilities   `json:"capabilities,omitempty"`
	DefaultDirectory            string          `json:"defaultDirectory,omitempty"`
	CompletionTriggerCharacters []string        `json:"completionTriggerCharacters,omitempty"`
	TerminalCommandPrefix       string          `json:"terminalCommandPrefix,omitempty"`
	Meta                        Meta            `json:"_meta,omitempty"`
}

type initializeResultAlias InitializeResult

// MarshalJSON writes the result with snapshots always an array.
func (r InitializeResult) MarshalJSON() ([]byte, error) {
	if r.Snapshots == nil {
		r.Snapshots = []Snapshot{}
	}
	return json.Marshal(initializeResultAlias(r))
}

// UnsupportedVersionData is the data of a -32005 error.
type UnsupportedVersionData struct {
	SupportedVersions []string `json:"supportedVersions"`
}

// MessageTooLargeData is the data of a -32050 error.
type MessageTooLargeData struct {
	Size  int64 `json:"size"`
	Limit int64 `json:"limit"`
}

// ReconnectParams is the params of `reconnect`, in either shape (see
// reconnect11.go): 1.0 has one connection-wide LastSeenServerSeq and
// Subscriptions as URIs; 1.1 has one cursor per channel (Cursors, sent as
// `subscriptions: [{channel, lastSeenServerSeq}]`).
type ReconnectParams struct {
	Channel           string        `json:"channel"`
	ClientID          string        `json:"clientId"`
	LastSeenServerSeq uint64        `json:"lastSeenServerSeq"`
	Subscriptions     []string      `json:"subscriptions"`
	Capabilities      *Capabilities `json:"capabilities,omitempty"`
	Meta              Meta          `json:"_meta,omitempty"`
	// Cursors is the 1.1 shape; non-nil means the params use it.
	Cursors []ChannelReplayCursor `json:"-"`
}

// Reconnect result types.
const (
	ReconnectReplay   = "replay"
	ReconnectSnapshot = "snapshot"
)

// ReconnectResult is the result of `reconnect`: in 1.0, Type "replay"
// carries Actions and Missing, Type "snapshot" carries Snapshots; in 1.1,
// Channels carries one recovery per requested channel (Type is then "").
type ReconnectResult struct {
	Type         string           `json:"type"`
	Actions      []ActionEnvelope `json:"actions,omitempty"`
	Missing      []string         `json:"missing,omitempty"`
	Snapshots    []Snapshot       `json:"snapshots,omitempty"`
	Capabilities *Capabilities    `json:"capabilities,omitempty"`
	// Channels is the 1.1 shape; non-nil means the result uses it.
	Channels []ChannelRecovery `json:"channels,omitempty"`
}

type reconnectReplayWire struct {
	Type         string           `json:"type"`
	Actions      []ActionEnvelope `json:"actions"`
	Missing      []string         `json:"missing"`
	Capabilities *Capabilities    `json:"capabilities,omitempty"`
}

type reconnectSnapshotWire struct {
	Type         string        `json:"type"`
	Snapshots    []Snapshot    `json:"snapshots"`
	Capabilities *Capabilities `json:"capabilities,omitempty"`
}

// MarshalJSON writes the fields of the result's variant, with its arrays
// always present.
func (r ReconnectResult) MarshalJSON() ([]byte, error) {
	if r.Channels != nil {
		return json.Marshal(reconnectChannelsWire{r.Channels, r.Capabilities})
	}
	if r.Type == ReconnectSnapshot {
		s := r.Snapshots
		if s == nil {
			s = []Snapshot{}
		}
		return json.Marshal(reconnectSnapshotWire{r.Type, s, r.Capabilities})
	}
	a, m := r.Actions, r.Missing
	if a == nil {
		a = []ActionEnvelope{}
	}
	if m == nil {
		m = []string{}
	}
	return json.Marshal(reconnectReplayWire{r.Type, a, m, r.Capabilities})
}

// SubscribeView bounds a chat snapshot to the last Turns turns.
type SubscribeView struct {
	Turns *int `json:"turns,omitempty"`
}

// SubscribeDelivery bounds server-side coalescing.
type SubscribeDelivery struct {
	MaxLatencyMs *int64 `json:"maxLatencyMs,omitempty"`
}

// SubscribeParams is the params of `subscribe`.
type SubscribeParams struct {
	Channel  string             `json:"channel"`
	Delivery *SubscribeDelivery `json:"delivery,omitempty"`
	View     *SubscribeView     `json:"view,omitempty"`
	Meta     Meta               `json:"_meta,omitempty"`
}

// SubscribeResult is the result of `subscribe`; Snapshot is nil for
// stateless channels. For chats, older turns are announced by the state's
// turnsNextCursor (mirrored in TurnsNextCursor when the host sets it).
type SubscribeResult struct {
	Snapshot        *Snapshot `json:"snapshot,omitempty"`
	TurnsNextCursor string    `json:"turnsNextCursor,omitempty"`
}

// FetchTurnsParams is the params of `fetchTurns`; the host answers `{}`
// after dispatching chat/turnsLoaded.
type FetchTurnsParams struct {
	Channel string `json:"channel"`
	Cursor  string `json:"cursor,omitempty"`
	Limit   *int   `json:"limit,omitempty"`
}

// ListSessionsParams is the params of `listSessions`.
type ListSessionsParams struct {
	Channel string `json:"channel"`
	Limit   *int   `json:"limit,omitempty"`
	Cursor  string `json:"cursor,omitempty"`
}

// ListSessionsResult is the result of `listSessions`.
type ListSessionsResult struct {
	Items      []SessionSummary `json:"items"`
	NextCursor string           `json:"nextCursor,omitempty"`
}

type listSessionsAlias ListSessionsResult

// MarshalJSON writes the result with items always an array.
func (r ListSessionsResult) MarshalJSON() ([]byte, error) {
	if r.Items == nil {
		r.Items = []SessionSummary{}
	}
	return json.Marshal(listSessionsAlias(r))
}

// CreateSessionParams is the params of `createSession` (result null).
type CreateSessionParams struct {
	Channel            string                     `json:"channel"`
	Provider           string                     `json:"provider,omitempty"`
	WorkingDirectories []string                   `json:"workingDirectories,omitempty"`
	Repositories       []RepositorySource         `json:"repositories,omitempty"`
	Config             map[string]json.RawMessage `json:"config,omitempty"`
	ActiveClient       *SessionActiveClient       `json:"activeClient,omitempty"`
	ProgressToken      json.RawMessage            `json:"progressToken,omitempty"`
	Meta               Meta                       `json:"_meta,omitempty"`
}

// CreateChatSource is the fork/sideChat source of `createChat`.
type CreateChatSource struct {
	Kind      string             `json:"kind"`
	Chat      string             `json:"chat"`
	TurnID    string             `json:"turnId"`
	Selection *SideChatSelection `json:"selection,omitempty"`
}

// CreateChatParams is the params of `createChat` (result null). Channel is
// the session URI, Chat the client-chosen chat URI.
type CreateChatParams struct {
	Channel            string            `json:"channel"`
	Chat               string            `json:"chat"`
	InitialMessage     *ChatMessage      `json:"initialMessage,omitempty"`
	Source             *CreateChatSource `json:"source,omitempty"`
	WorkingDirectories []string          `json:"workingDirectories,omitempty"`
	Meta               Meta              `json:"_meta,omitempty"`
}

// SessionAddedParams is the params of `root/sessionAdded`.
type SessionAddedParams struct {
	Channel string         `json:"channel"`
	Summary SessionSummary `json:"summary"`
}

// SessionRemovedParams is the params of `root/sessionRemoved`.
type SessionRemovedParams struct {
	Channel string `json:"channel"`
	Session string `json:"session"`
}

// SessionSummaryChangedParams is the params of `root/sessionSummaryChanged`.
type SessionSummaryChangedParams struct {
	Channel string                `json:"channel"`
	Session string                `json:"session"`
	Changes PartialSessionSummary `json:"changes"`
}

// AuthRequiredParams is the params of `auth/required`.
type AuthRequiredParams struct {
	Channel  string                    `json:"channel"`
	Resource ProtectedResourceMetadata `json:"resource"`
	Reason   string                    `json:"reason,omitempty"`
}
