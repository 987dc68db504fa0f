// Package reducer is the pure heart of the client's transcript: it turns
// explicit message-lifecycle actions into the State the TUI renders, and
// derives those actions from AHP's own chat state.
//
// The model follows the server-owned message lifecycle (seed
// message-protocol-v2.md, PROTOCOL.md Part A §7): a State holds finished
// Messages and at most one streaming Current message; every message is an
// ordered list of Blocks with stable indexes (text, thinking, tool call,
// error, input request, system notification, content reference, unknown).
// Blocks refer to the AHP payloads (ahpwire.ToolCallState,
// ahpwire.ChatInputRequest, ahpwire.ContentRef) instead of copying them.
//
// AHP's rules live in package ahpstate alone. The client keeps each chat's
// AHP state (ahpwire.ChatState) by applying envelopes with ahpstate, and
// this package only reads the result:
//
//   - Apply(ChatState, State, envelope) moves both on: AHP's state with
//     ahpstate.ReduceChat, the transcript with the actions Derive returns.
//   - Derive(action, before, after) compares two AHP states and returns the
//     lifecycle actions that carry the transcript from one to the other:
//     which tool-call status may follow which, what a turn end does to
//     running tools or which actions are no-ops is never decided here.
//   - Reduce(State, Action) State is pure and deterministic (no I/O, clocks
//     or randomness) and tolerant: MessageStart finalises an orphaned
//     Current, SessionEnd force-finalises, actions for unknown or finished
//     blocks are ignored and counted in State.Stats.
//   - Project(ChatState) State turns an AHP chat snapshot into a State:
//     finished turns become Messages (via Restore), the active turn becomes
//     Current (via MessageSnapshot) with block i showing response part i,
//     so that derived actions continue it.
//   - AdoptRefTurn(ChatState, State, Turn) takes a host's copy of a
//     finished turn whose long markdown parts are content references
//     (fetched again with fetchTurns) in place of the inline text, after
//     checking that it shows the same content; the transcript follows with
//     MessageReplaced. Not an AHP transition: only one finished turn's
//     representation changes, so the client can drop its copy of the text.
//
// Sharing and cost. States are values; everything reachable from a State is
// immutable once published and may be shared by later states (and with the
// AHP states it was derived from). Finished messages are never copied.
// Streaming text lives in append-only buffers (internal/textbuf), the same
// buffer as the AHP part's: a delta costs O(len(delta)) amortised plus a
// copy of the small structs on the path (State, Current's header, its block
// pointer slice and the target block). Renderers can cache per
// (Message.ID, Block.Index, Block.Rev): Rev changes whenever a block changes.
package reducer
