// Package fakeacp holds the scripted ACP agent the ACP bridge's tests run
// (cmd/fakeacp): a small program built with the SDK's agent side, scripted
// by the first word of each prompt. See cmd/fakeacp for the scripts.
package fakeacp
