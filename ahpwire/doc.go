// Package ahpwire holds the Agent Host Protocol (AHP) wire types shared by
// the host, the client and the reducers: JSON-RPC 2.0 framing, command
// params and results, channel states (root, session, chat) and every state
// action with a type-discriminated codec.
//
// The package is pure data plus JSON encoding; it performs no I/O. Decoding
// is tolerant: unknown fields are ignored, unknown action types decode to
// *UnknownAction, unknown response-part kinds, tool-call statuses and tool
// result content types are preserved verbatim, and older (0.5-era) shapes
// such as chat/error carrying `error` instead of `part` are accepted.
package ahpwire
