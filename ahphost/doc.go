// Package ahphost is an embedded Agent Host Protocol (AHP) host: a real AHP
// server over WebSocket (github.com/coder/websocket) whose turns run on the
// agents it is given (Options.Agent / Agents: the contract is package
// ahphost/agent; the scripted demo agent and the ACP bridge implement it,
// and the host imports neither), used by `ahptui serve` and as the peer in
// the project's tests.
//
// # Protocol
//
// The host speaks JSON-RPC 2.0, one message per text frame, and implements
// the commands of PROTOCOL.md Part B (initialize, reconnect, ping,
// subscribe/unsubscribe, listSessions, createSession/disposeSession,
// createChat/disposeChat, fetchTurns, dispatchAction) plus the project
// decisions of Part A: version negotiation (>=1.0.0 <2.0.0 and
// >=0.9.0 <0.10.0), the ahp/messageSegment extension in both directions with
// capability negotiation, an explicit receive ceiling, and the -32050
// MessageTooLarge fail-closed rule toward clients that did not advertise
// chunking.
//
// There is one server-global serverSeq. Every state change is an action
// envelope that is reduced into the host's per-channel state (package
// ahpstate, the same semantics as AHP's reducers), appended to a bounded
// replay log and broadcast to every subscriber of its channel. A reconnect
// replays from the log or, when the gap is larger than the log, returns
// snapshots.
//
// # Connections
//
// Each connection has one reader goroutine (reassembly, dispatch) and one
// writer goroutine that owns an unbounded in-order queue. A reassembled
// message is validated once, where it is parsed (segment.ParseMessage; a
// violation closes with 4400), not again by encoding/json. Messages larger
// than the receiver's frame limit are segmented; while one is in flight,
// single-frame responses and protocol notifications may be written between
// its segments, but action envelopes never change order (the client's
// lastSeenServerSeq is connection-wide), nor does a response whose request
// emitted envelopes overtake one (fetchTurns is answered after its
// chat/turnsLoaded page, however segmented). Responses whose request emitted no
// envelopes (ping, listSessions, ...) may also overtake queued envelopes
// while a segmented message is in flight, so pings stay answered during
// bulk transfers. Snapshots and replays are captured under the host lock
// (state values are immutable) and encoded by the connection's writer,
// outside it, large ones at most two at a time host-wide. No answer is
// built above the peer's maximum message (its maxIncomingMessageBytes, or
// one frame without chunking): chat snapshots carry the newest turns that
// fit plus turnsNextCursor (AHP turn windows; fetchTurns pages, also sized
// to fit, bring the rest), and a replay too large becomes snapshots. Only
// a state that does not fit even without its finished turns gets -32050,
// and its request's state changes are rolled back (a failed
// initialize/reconnect leaves the connection uninitialized).
//
// Large parts go by reference: when a turn has finished, each markdown
// part and text tool output above LargePartBytes (1 MiB) is moved into the
// resource store in pages of ResourcePageBytes (64 KiB) and the turn keeps
// one contentRef part (or resource block) per page, so even a single huge
// turn fits any window and every resourceRead answer stays small. Live
// streaming is unchanged: the deltas still carry the text as it arrives.
// "/demo history N" seeds a session with N finished turns for paging.
//
// # Limits
//
// Every resource a peer can make the host hold is bounded (Options fields,
// defaults in parentheses): connections (MaxConnections, 128; then 503),
// the upgrade request's headers and the time from upgrade to initialize
// (HandshakeTimeout, 10 s; then 1008), one incoming message from its first
// frame to its last fragment (MessageReadTimeout, 30 s), the bytes of
// incoming messages in flight across connections (MaxPendingReadBytes,
// 64 MiB, each message's first 32 KiB exempt; then 1013), request params (MaxRequestParamsBytes, 4 MiB),
// distinct subscriptions per connection (MaxSubscriptions, 256; duplicates
// are merged), the replay log (ReplayLog, 4096 envelopes, and
// ReplayLogBytes, 16 MiB; rejected envelopes are never logged, and once a
// finished turn's long text is stored by reference the envelopes before
// it are dropped: reconnecting from before gets a snapshot), each
// connection's outbound queue (QueueBytes, 64 MiB) and each frame write
// (WriteTimeout, 30 s). A client over either of the last two is closed
// with CloseSlowConsumer (4008 "slow consumer"), which clients treat as a
// dropped link and reconnect. WebSocket pings (KeepAlive, 30 s) drop dead
// links; a ping is skipped at most twice while a frame is being written.
// Idle HTTP connections close after 10 s, refused requests at once, and
// WARN lines about refused connections are rate-limited. Without a token,
// the Host header must be an IP literal, localhost, the bound name or one
// of AllowedHosts (DNS rebinding). A panic in a handler, the writer or an
// agent run is recovered: the connection is closed with 1011 and removed
// from every broadcast. resourceRead answers are built by the writer, like
// snapshots (a peer that never reads holds a small entry per request); the
// resource store keeps ResourceBudget (256 MiB) in memory and evicts the
// oldest resources to files under StateDir (removed at Close), never
// dropping one; terminals keep at most 4 MiB of output each (oldest
// dropped), titles of 4 KiB and sizes up to 1000×500, and only a claiming
// client may resize, retitle or clear its terminal; a turn id is never
// reused across chats; a message cut off by the peer's half-close is
// discarded. `ahptui serve` (cli) sets a 384 MiB soft memory limit unless
// GOMEMLIMIT is set; TestSoakAllAttacksAtOnce holds the host's peak RSS
// under 512 MB with every known attack running at once.
//
// # Quickstart
//
//	h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: "."})
//	if err != nil { ... }
//	url, err := h.Listen("127.0.0.1:0") // ws://127.0.0.1:PORT
//	defer h.Close()
//
// For tests, Handler returns an http.Handler usable with httptest,
// SeedSession (with SyntheticTurns) preloads a chat with finished turns, and
// Options.Faults plus the runtime methods DropAll, Outage, GoSilent,
// SetFrameDelay, DropAfterFrames and DropAtServerSeq inject link failures.
// The package takes Options, never argv: the `ahptui serve` command
// (cli) parses its flags into Options; --frame-delay, --drop-after
// and --silent-after/--silent-for map onto Options.Faults.
package ahphost
