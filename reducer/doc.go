// Package reducer is the pure heart of the client: it turns explicit
// message-lifecycle actions into the State the TUI renders, and translates
// AHP chat actions into those lifecycle actions.
//
// The model follows the server-owned message lifecycle (seed
// message-protocol-v2.md, PROTOCOL.md Part A §7): a State holds finished
// Messages and at most one streaming Current message; every message is an
// ordered list of Blocks with stable ids (text, thinking, tool call, error,
// input request, system notification, content reference, unknown).
//
// Three entry points:
//
//   - Reduce(State, Action) State is pure and deterministic (no I/O, clocks
//     or randomness) and tolerant: MessageStart finalises an orphaned
//     Current, SessionEnd force-finalises, deltas for unknown or finished
//     blocks are ignored and counted in State.Stats, unknown part kinds are
//     kept as KindUnknown blocks and skipped by renderers.
//   - Translate(envelope, State) []Action maps one AHP action envelope to
//     lifecycle actions with AHP's own semantics (turn-scoped actions are
//     no-ops unless they name the active turn, tool-call transitions only
//     from the states AHP allows, turn ends close every open block and
//     cancel non-terminal tool calls as skipped, rejected envelopes and
//     unknown actions are ignored).
//   - Project(ChatState) State turns an AHP chat snapshot into a State:
//     finished turns become Messages (via Restore), the active turn becomes
//     Current (via MessageSnapshot) so that later deltas continue.
//
// Sharing and cost. States are values; everything reachable from a State is
// immutable once published and may be shared by later states. Finished
// messages are never copied. Streaming text lives in append-only buffers:
// appending a delta costs O(len(delta)) amortised plus a copy of the small
// structs on the path (State, Current's header, its block pointer slice and
// the target block). Renderers can cache per (Message.ID, Block.Index,
// Block.Rev): Rev changes whenever a block changes.
package reducer
