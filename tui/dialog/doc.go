// Package dialog holds the overlays the root model (package tui) stacks
// over its screens: each is a uikit.Overlay, built by a constructor that
// takes what it needs (key bindings, styles, data) explicitly, and hands
// its result to the root as an exported message (SessionActionMsg,
// HistoryPickedMsg, AuthenticateMsg, OpenArtifactMsg) or as the message
// its caller gave it (Confirm). It imports no tui package but tui/uikit.
package dialog
