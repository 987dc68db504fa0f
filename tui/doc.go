// Package tui is ahptui's interactive terminal UI, built on Bubble Tea v2.
//
// The root Model routes messages between the screens, each a package of
// its own: the session picker (tui/picker) and the chat screen (tui/chat:
// transcript, composer), above what they share (tui/app); it keeps the
// status line, the hosts, the sessions and a stack of overlays (package
// tui/dialog: help, confirmation, approval prompt, input form, ...).
// Model.Update (model_update.go) is one type switch that hands each message
// type to the one handler of its feature; docs/ARCHITECTURE.md has the
// table from a behaviour to its file. It performs no I/O in Update or View: every client call is a tea.Cmd, and client events
// enter through one pump command that blocks on Backend.Next and is re-armed
// after each event. Envelopes are acknowledged to the client only after the
// reducer has applied them.
//
// Every colour comes from render.Palette: the chrome styles (tui/uikit/styles.go) and
// the text inputs are derived from the same dark or light palette as the
// transcript. Prompts that open by themselves (approvals, sign-in notices,
// questions) are counted in the status line; one that opens while the user
// is typing ignores its decision keys for a moment (prompts.go).
//
// The transcript is virtualised: it renders only the messages needed for the
// visible window, caches their lines per immutable message, and composes
// each frame from at most one screen of lines (see chat/transcript.go).
package tui
