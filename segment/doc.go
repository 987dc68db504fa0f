// Package segment implements the AHP message-segmenting extension
// ("RFC: Message Chunking", ahp/messageSegment) as a pure library: no sockets,
// no goroutines and no I/O.
//
// A sender uses a [Splitter] to turn one serialized JSON-RPC message into the
// frames to put on the wire (the message itself when it fits the receiver's
// maxIncomingFrameBytes, otherwise ahp/messageSegment notifications whose whole
// frame fits the limit), and optionally a [Scheduler] to interleave the
// segments of several groups so small messages are not starved behind a bulk
// transfer.
//
// A receiver feeds every received text frame to a [Reassembler]. Frames that
// are not segments pass through unchanged; segments are validated against
// every rule of the RFC's validation table and decoded straight into one
// buffer per group. Any violation is reported as a [*ViolationError]; the
// transport then closes the connection with [CloseCode] and [CloseReason].
//
// Capabilities are negotiated with [ChunkingCapability]; the defaults follow
// PROTOCOL.md Part A §2 (16 MiB frames on direct connections, 900000 on the
// relay profile, 32 MiB messages, 8 groups, 30 s group timeout). The RFC's
// error code -32011 clashes with AHP's Conflict, so this project uses
// [CodeMessageTooLarge] (-32050) with data {size, limit}.
package segment
