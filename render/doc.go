// Package render turns reducer state (messages and their blocks) into
// terminal lines for the TUI.
//
// Everything the package draws follows three rules:
//
//   - Hostile text is neutralised. Every piece of server text passes through
//     [Sanitize] before it is measured, wrapped or handed to glamour, and the
//     markdown output is filtered again so that only SGR styling and OSC 8
//     hyperlinks produced by our own renderers reach the terminal.
//   - Colours come from one [Styles] value built by [DarkStyles] or
//     [LightStyles] ([StylesFor] picks one from the terminal background).
//     No other file of the package contains a colour literal.
//   - Output is deterministic for a given width, style and [ViewOpts]. The
//     package never reads a clock: elapsed times are computed from the
//     ViewOpts.Now value the caller passes in.
//
// Markdown is rendered with glamour, but never as a whole document while it
// streams: [Markdown] splits the text into top-level blocks, renders each
// completed block once (cached by content hash, width and style) and
// re-renders only the open tail, without syntax highlighting. See
// markdown.go for the details and docs/benchmarks/rounds-2026-11.md (render section) for the numbers.
//
// One-line server strings that may be markdown (tool invocation and
// past-tense messages, confirmation titles, risk and cancel reasons) are not
// sent to glamour: a small inline parser draws their code spans, strong
// text, emphasis and links (inline.go). Long lines of code, terminal output
// and diffs wrap with a continuation mark in the gutter (codewrap.go).
//
// The package knows no key bindings (render does not import keymap): the
// key hints under confirmations and result reviews come from the caller as
// data ([ViewOpts].Hints), defaulting to [DefaultPromptHints].
//
// The package does not coalesce on its own: the TUI renders at most once per
// frame tick (see [FrameGate]).
package render
