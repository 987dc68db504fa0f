// Package chat is the chat screen: the virtualised transcript, the
// composer and its completion popup, client slash commands, search, the
// queue and steering list, background work and subagents, copy and
// export, and the messages that did not reach the chat.
//
// Model holds the open chat's reducer state (reducer.Apply over AHP's
// ahpstate reducers) and hands what only the root can do (open a prompt,
// a terminal, another chat, the picker) to it as messages. It imports
// tui/app and tui/uikit, never package tui or tui/picker.
package chat
