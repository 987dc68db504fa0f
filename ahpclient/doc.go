// Package ahpclient is the client half of the Agent Host Protocol (AHP)
// wire for ahptui: a WebSocket JSON-RPC connection to one host with version
// negotiation, segmenting (ahp/messageSegment) in both directions, ordered
// and lossless event delivery, sequence tracking, an outbox for dispatched
// actions that is also their one send order (Queue, Flush: the host gets
// actions in the order they were queued), a heartbeat and a reconnect supervisor that resumes subscriptions
// with `reconnect` (replay or snapshot) and falls back to `initialize`.
// While it waits out a reconnect backoff, ConnState.NextRetry says when the
// next attempt is due and Client.RetryNow makes it happen at once.
//
// # Quickstart
//
//	c, err := ahpclient.New(ahpclient.Options{URL: "ws://127.0.0.1:8081?tkn=..."})
//	if err != nil { ... }
//	if err := c.Start(ctx); err != nil { // unreachable, *AuthError, *VersionError
//		fmt.Fprintln(os.Stderr, err)     // token already masked
//		return
//	}
//	defer c.Close()
//	for {
//		ev, err := c.Next(ctx) // acknowledges the previous envelope
//		if err != nil { break }
//		switch ev := ev.(type) {
//		case ahpclient.SnapshotEvent: // replace state of ev.Snapshot.Resource
//		case ahpclient.EnvelopeEvent: // apply ev.Envelope.Action
//		case ahpclient.ConnStateEvent: // status line
//		case ahpclient.OutboxEvent:    // pending / uncertain / rejected marks
//		case ahpclient.TurnsFetchedEvent: // a FetchTurns page has been delivered
//		}
//	}
//
// With Bubble Tea wrap Next in a tea.Cmd and re-arm it after Update has
// applied the event; the next Next then acknowledges it.
//
// # Guarantees
//
//   - The receive ceiling (Options.MaxFrameBytes, 16 MiB) is the WebSocket
//     read limit, so an oversized frame is rejected before it is decoded:
//     the transport closes, in-flight requests fail with *TransportError
//     (cause *FrameTooLargeError), and the supervisor reconnects. See
//     "Oversized messages" for when it stops instead.
//   - Every request gets its result or a typed error (ErrNotConnected,
//     ErrClosed, *TransportError, *MessageTooLargeError for a -32050
//     answer, a wrapped *ahpwire.RPCError, ctx's error); requests without
//     a deadline get Options.RequestTimeout. ErrorCode reports the JSON-RPC
//     code of any host error, -32050 included.
//   - Events are never dropped. When the consumer falls behind, reading from
//     the host pauses (backpressure) instead of buffering without bound.
//   - A request whose answer must follow envelopes completes in the same
//     stream: FetchTurns' TurnsFetchedEvent comes after its
//     chat/turnsLoaded page (the response hook pushes it on the reader,
//     after every envelope read before the answer, and the host never
//     writes such an answer between the segments of an envelope), so a
//     pager never waits for a page it already asked for.
//   - lastSeenServerSeq advances only over acknowledged envelopes
//     (PROTOCOL.md Part A §4); per-channel cursors skip replayed envelopes
//     already delivered, so replays are idempotent.
//   - Envelopes carrying rejectionReason are never delivered; the outbox
//     entry becomes Rejected with a *RejectedError.
//   - Tokens are masked (internal/redact) in every error, log line and state.
//   - No frame from a host crashes the client: a panic while handling one
//     is recovered, logged, and ends the connection with a *ProtocolError
//     (the supervisor reconnects). An error response with "id": null
//     answers nothing this client sent and is logged. An envelope without
//     channel or action is dropped and advances no sequence number.
//   - A message is handled only once it is complete: when the host closes
//     or half-closes the stream in the middle of a fragmented message
//     (which coder/websocket v1.8.15 would report as complete), the
//     message is discarded and the client reconnects.
//   - The host must answer initialize with one of ProtocolVersions;
//     anything else is a *VersionError naming both sides (Failed).
//
// # Client identity
//
// The clientId belongs to one live process. Ids are persisted per host in
// slots StateDir/client-ids/<host>.0, <host>.1, ...; New takes the first
// slot no live process holds and keeps an exclusive lock on it (flock on
// Unix, a share-exclusive open on Windows; elsewhere only among the Clients
// of one process) until Close. A restarted TUI therefore reuses its id (and
// can reconnect), while a second TUI attached to the same host gets another
// one, so echoes (origin clientId + clientSeq) are never confused.
//
// # Reconnect fallback
//
// On a new transport the client sends reconnect. A JSON-RPC error makes it
// send initialize with the old subscriptions on the same connection (a
// refused reconnect leaves it uninitialized). An unusable result (unknown
// type, undecodable), or a refusal of that initialize, makes it close the
// transport and initialize on a fresh one; until an initialize succeeds
// every further attempt initializes directly, so no host answer can make
// it loop on the same connection. An initialize answered -32050 is retried
// with the root channel alone and the other channels are reported lost
// (ChannelLostEvent).
//
// # Oversized messages
//
//   - Too large to send: refused locally with an error matching
//     ErrMessageTooLarge (host without chunking, or above its message
//     limit); the link is untouched.
//   - The host answers -32050: *MessageTooLargeError (Size, Limit from its
//     data) for that request only; the link stays up.
//   - The host or a relay closes with 1009 while a frame of this client
//     larger than any the host had accepted (and at least 16 KiB) was
//     unanswered: that request fails (*FrameTooLargeError with Outbound),
//     the client reconnects, and from then on messages that large toward
//     this host are refused locally (or segmented smaller), so re-issuing
//     the request gives a per-request error without dropping the link.
//   - A frame above the receive ceiling (or a 1009 not attributed to an
//     outbound frame) while an application request awaited its answer is
//     taken to be that answer: the request fails with *TransportError and
//     the client reconnects; re-issuing it fails the same way, never the
//     whole client.
//   - Any other oversized frame (an envelope, a notification, a reconnect
//     or automatic answer) is one the host would send again by itself. Two
//     such failures in a row with no progress in serverSeq in between (the
//     highest fully received serverSeq did not move) end in Failed with a
//     *PersistentOversizeError naming the fix; progress restarts the count,
//     so a different large message later is judged afresh.
//
// Server→client requests are answered -32601 unless Options.RequestHandler
// is set.
//
// # Concurrency
//
// Goroutines: per Client one supervisor (connection lifecycle, backoff,
// reconnect); per connection one reader (the only reader of the socket:
// reassembly, responses and their hooks, envelope admission), one
// heartbeat, and one per server request while a RequestHandler runs. The
// consumer calls Next; any goroutine may call the other methods.
//
// State has one owner where it can: response hooks and envelope admission
// run on the reader, the backoff timer and the oversize streak on the
// supervisor. Shared state is guarded by eight mutexes, and the lock
// order is a single rule:
//
//	Client.sendMu → any other lock; every other lock is a leaf.
//
// Client.sendMu orders dispatch writes (Flush and Dispatch, the flush of
// held dispatches in activate, failHeld, onDisconnect) and is the only lock held
// while another is taken (Client.mu, outbox.mu, eventQueue.mu, conn.writeMu,
// conn.mu). Each leaf is held only around its own fields and calls nothing
// that locks: Client.mu (phase, live connection, negotiated version,
// oversize streak, backoff wake-up), conn.mu (pending calls, failure),
// conn.writeMu (the frames of one message, across the writes),
// conn.reasmMu (reassembler: fed by the reader, swept by the heartbeat),
// eventQueue.mu, seqTracker.mu and outbox.mu (and, off Unix and Windows,
// the process-wide client-id slot table's). Locks inside other packages
// (segment.Splitter, coder/websocket) are taken under sendMu or writeMu
// but never call back into this package. Values read without a lock
// are atomics: the largest frame the host accepted and the learned
// outbound limit (Client), the host's chunking capability, the time of
// the last frame and the reader's busy flag (conn), and the process-wide
// clientSeq counter. Events reach the consumer only through eventQueue,
// whose push never blocks while a lock is held.
//
// # Close codes
//
// A host closes a connection that stopped reading with CloseSlowConsumer
// (4008 "slow consumer"); the client treats it as a lost link and
// reconnects (never Failed), resuming from lastSeenServerSeq. An invalid
// ahp/messageSegment makes the client close with 4400. Any other close
// reconnects too, unless stopReason says otherwise (auth, version, a
// persistent oversized frame).
package ahpclient
