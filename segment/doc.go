// Package segment implements the AHP message-segmenting extension
// ("RFC: Message Chunking", ahp/messageSegment) as a pure library: no
// sockets, no goroutines, no I/O.
//
// A sender uses a [Splitter] to turn one serialized JSON-RPC message into the
// frames to put on the wire: the message itself when it fits the receiver's
// maxIncomingFrameBytes (and the transport's own ceiling), otherwise
// ahp/messageSegment notifications whose whole frame fits the limit. A
// [Scheduler] can interleave the segments of several groups so small
// messages are not starved behind a bulk transfer, or keep them contiguous.
//
// A receiver feeds every received text frame to a [Reassembler]. Frames that
// are not segments pass through unchanged; segments are checked against
// every rule of the RFC's validation table and decoded straight into one
// buffer per group; a completed group is returned only if it is valid UTF-8
// and exactly one JSON-RPC 2.0 request, response or notification (no
// duplicate or case-folded envelope member). A violation is a
// [*ViolationError] naming its [Rule]. A transport that parses every message
// with a validating decoder anyway may use FeedUnchecked and make that check
// where it parses (ParseMessage), so the JSON is validated once.
//
// Group buffers grow with the data received, never from the declared total,
// and may draw from a [Budget] shared by every connection of a process
// (Limits.Budget): a segment that would exceed it fails with
// [RuleBudgetExceeded], closing only that connection.
//
// Capabilities are negotiated with [ChunkingCapability]; the defaults follow
// PROTOCOL.md Part A §2 (16 MiB frames on direct connections, 900000 bytes on
// the relay profile, 32 MiB messages, 8 groups, 30 s group timeout). The RFC's
// error code -32011 clashes with AHP's Conflict, so this project uses
// [CodeMessageTooLarge] (-32050) with data {size, limit}.
//
// # Wiring it into a transport
//
//   - Advertise DefaultCapability() (or RelayCapability()) in initialize /
//     reconnect, and set the WebSocket read limit to its
//     MaxIncomingFrameBytes: Feed does not re-check raw frame sizes
//     (an oversized frame is the transport's protocol violation).
//   - Receive: NewReassembler(own.Limits(), nil); pass every text frame to
//     Feed. On a *ViolationError close with [CloseCode] and [CloseReason].
//     Call Sweep periodically (e.g. every GroupTimeout/2) and Reset when the
//     connection drops (however it ends: Reset returns the buffers to the
//     Budget). Only count an envelope as seen (lastSeenServerSeq)
//     after Feed returned it and it was applied.
//   - Send: Splitter.SplitGroup(msg, peerCapOrNil, transportCeiling). A
//     *NotNegotiatedError or *MessageTooLargeError maps to the fail-closed
//     rules: fail a request locally, answer a response with
//     CodeMessageTooLarge and the error's Data(), drop and log a
//     notification. Call Splitter.Done(id) once the group's last frame is
//     written (Scheduler.OnGroupSent can do that) and Splitter.Reset on
//     disconnect.
//   - Interleaved scheduling reorders messages; keep Contiguous where the
//     peer depends on order (e.g. action envelopes with increasing serverSeq).
package segment
