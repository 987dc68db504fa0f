// Package ahphost is an embedded Agent Host Protocol (AHP) host: a real AHP
// server over WebSocket (github.com/coder/websocket) with a scripted demo
// agent, used by `ahptui serve` and as the peer in the project's tests.
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
// writer goroutine that owns an unbounded in-order queue. Messages larger
// than the receiver's frame limit are segmented; while one is in flight,
// single-frame responses and protocol notifications may be written between
// its segments, but action envelopes never change order (the client's
// lastSeenServerSeq is connection-wide). Responses whose request emitted no
// envelopes (ping, listSessions, ...) may also overtake queued envelopes
// while a segmented message is in flight, so pings stay answered during
// bulk transfers. A connection whose queue exceeds Options.QueueBytes is
// dropped; WebSocket pings (Options.KeepAlive) drop dead links.
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
// (internal/cli) parses its flags into Options; --frame-delay, --drop-after
// and --silent-after/--silent-for map onto Options.Faults.
package ahphost
