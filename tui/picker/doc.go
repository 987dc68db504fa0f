// Package picker is the session picker: the sessions of every configured
// host grouped by host, the filter, and the session actions (rename,
// archive, dispose, mark read) handed to the root as messages. It imports
// tui/app, tui/dialog and tui/uikit, never package tui or tui/chat.
package picker
