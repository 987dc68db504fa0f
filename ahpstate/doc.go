// Package ahpstate implements AHP's own state reducers (root, session, chat,
// terminal and changeset channels) and the validation a host applies to client-dispatched
// actions before accepting them.
//
// Reducers are pure: they never mutate their input state. Every slice, map
// or pointer they change is copied first (copy-on-write), so a caller may
// keep earlier states as snapshots and share unchanged sub-structures
// between them. Unknown actions and actions that do not apply (wrong turn,
// unknown tool call, disallowed transition) return the state unchanged.
//
// RULES.md beside this file lists every case of the reference reducers
// (microsoft/agent-host-protocol, types/channels-*/reducer.ts), the Go
// function implementing it, the test pinning it, and the deliberate
// divergences with their reasons.
package ahpstate
