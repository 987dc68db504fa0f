// Package app is what the tui's screens share, below them: App (the
// context, Backend, keys, styles, clock, ids, logger and prompt history
// handed to every screen), the backend commands (tea.Cmds: no screen calls
// the client from Update or View, but for queueing an action in the
// client's send order, App.Dispatch) and the messages they produce, the side Channels (terminal and changeset subscriptions, the
// content-reference loader) and the status line's StatusInfo.
//
// The screens (tui/chat, tui/picker) import app and never each other; the
// root model (package tui) imports them all.
package app
