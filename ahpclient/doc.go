// Package ahpclient is the client half of the Agent Host Protocol (AHP)
// wire for ahptui: a WebSocket JSON-RPC connection to one host with version
// negotiation, segmenting (ahp/messageSegment) in both directions, ordered
// and lossless event delivery, sequence tracking, an outbox for dispatched
// actions, a heartbeat and a reconnect supervisor that resumes subscriptions
// with `reconnect` (replay or snapshot) and falls back to `initialize`.
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
//     (cause *FrameTooLargeError), and the supervisor reconnects. The same
//     oversized frame at the same point again ends in Failed with a
//     *PersistentOversizeError instead of a loop.
//   - Every request gets its result or a typed error (ErrNotConnected,
//     ErrClosed, *TransportError, a wrapped *ahpwire.RPCError, ctx's error);
//     requests without a deadline get Options.RequestTimeout.
//   - Events are never dropped. When the consumer falls behind, reading from
//     the host pauses (backpressure) instead of buffering without bound.
//   - lastSeenServerSeq advances only over acknowledged envelopes
//     (PROTOCOL.md Part A §4); per-channel cursors skip replayed envelopes
//     already delivered, so replays are idempotent.
//   - Envelopes carrying rejectionReason are never delivered; the outbox
//     entry becomes Rejected with a *RejectedError.
//   - Tokens are masked (MaskToken) in every error, log line and state.
//
// Server→client requests are answered -32601 unless Options.RequestHandler
// is set.
package ahpclient
