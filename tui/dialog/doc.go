// Package dialog holds the overlays the root model (package tui) stacks
// over its screens: each is a uikit.Overlay, built by a constructor that
// takes what it needs (key bindings, styles, data, a TermSource or
// ChangeSource onto the root's side channels, a Sender for actions)
// explicitly, and hands its result to the root as an exported message
// (SessionActionMsg, HistoryPickedMsg, AuthenticateMsg, OpenArtifactMsg,
// the session config form's ConfigSubmitMsg, …) or as the message its
// caller gave it (Confirm). The root asks the host and hands the answers
// back (ConfigValuesMsg, ConfigDirCheckedMsg, …). It imports no tui
// package but tui/uikit.
package dialog
