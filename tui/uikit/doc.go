// Package uikit holds what the root model (package tui) and its dialogs
// (tui/dialog) both need: the chrome styles, the overlay contract, key
// hints, themed text inputs, and the commands that hand an intent or a
// notice to the parent. It imports no tui package.
package uikit
