// Package demo is the deterministic, scripted coding agent the embedded AHP
// host (package ahphost) runs for every turn. It is the first thing a new
// user sees in `ahptui demo`, so it streams like a real agent: reasoning,
// markdown with code, lists and tables, and tool calls through the whole AHP
// tool-call state machine.
//
// # Contract with the host
//
// The host creates one Agent with New, lists Agent.Providers in
// RootState.agents, and for every turn calls Agent.Run in its own goroutine:
//
//	err := agent.Run(ctx, demo.Turn{
//		Chat: chatURI, TurnID: turnID, Text: msg.Text, StartedAt: started,
//		Resume: false,         // true when re-run after chat/turnResume
//		Emit:   emitToChat,    // host stamps envelope + serverSeq, reduces, broadcasts
//		Client: clientActions, // accepted client actions for this chat
//	})
//
// Emit is called only from Run's goroutine and never after Run returns.
// Every action is a server-originated chat action of the turn
// (chat/responsePart, chat/delta, chat/reasoning, chat/toolCall*,
// chat/inputRequested, chat/usage, chat/turnComplete, chat/error).
//
// Client carries the client-dispatched actions the host accepted (and
// reduced) for the chat: chat/toolCallConfirmed,
// chat/toolCallResultConfirmed, chat/inputAnswerChanged and
// chat/inputCompleted matter; the agent ignores everything else and actions
// for other turns, tool calls or requests. The agent reads Client only while
// it waits for a decision, so forward into a buffered channel without
// blocking.
//
// Run returns nil once it has emitted chat/turnComplete or chat/error. On
// ctx cancellation (chat/turnCancelled, dispose, shutdown) it stops promptly
// and returns ctx.Err(); once it has seen the cancellation it starts no
// further Emit, and the host emits chat/turnCancelled itself (a host that
// drops actions of cancelled runs is safe against the one Emit that may race
// with the cancel). If Client is closed while the agent waits, Run returns
// ErrClientClosed and the host ends the turn.
//
// After a resumable chat/error (only /demo error produces one) the host
// reduces the client's chat/turnResume and calls Run again for the same turn
// with Resume set; the agent appends new parts (ids distinct from the first
// run's) and completes.
//
// Options.Now should be the host's clock, so turn durations agree with the
// host's timestamps (and are reproducible under a fixed test clock).
//
// # Determinism
//
// The same Options.Dir contents, TurnID and Text always produce the same
// action sequence. Choices come from a hash of the prompt; the only clock
// use is the turn duration (Options.Now, measured from Turn.StartedAt), and
// Pace only changes timing. Part ids are "<turnId>.<kind><n>", tool call ids
// "<turnId>.tc-<tool>", the input request id "<turnId>.input".
//
// # Scripts
//
//   - Any plain message: a reasoning part, a short markdown intro, a real
//     list_files tool call on the working directory (no confirmation), then a
//     markdown answer quoting the prompt with a list, a fenced code block and
//     a table, chat/usage and chat/turnComplete. The code block is in the
//     language the prompt names (go/golang, rust, python,
//     typescript/javascript/js/ts, sql, bash/shell; the first one mentioned
//     wins), else the language of the project's build file (go.mod,
//     Cargo.toml, package.json, pyproject.toml …), else one chosen by the
//     prompt's hash. The answer counts every directory entry, also those
//     list_files left out past MaxListEntries.
//   - /demo help (or just /demo): lists the scripts. Unknown words say so.
//   - /demo tools: list_files and read_file (real, read-only, no
//     confirmation), an edit_file call that needs confirmation and carries a
//     fileEdit (before/after sides are self-contained data: URIs on the
//     file's file: URI) plus the unified diff as text, and a run_command call
//     with options and a risk assessment that needs confirmation, streams
//     live output and then needs result confirmation. Approve or deny each;
//     nothing is written or run.
//   - /demo big N: a markdown reply of exactly N bytes (suffixes k/m, up to
//     32 MiB) whose last line is "-- end of N bytes --" (no trailing
//     newline), sent in chat/delta pieces of at most BigChunk bytes.
//   - /demo slow [lines]: a long answer, one line per Options.SlowPace;
//     cut short by a host restart and resumed, it goes on after the last
//     line the chat shows (Turn.ReplyTail).
//   - /demo error: ends with a resumable chat/error; resuming completes it.
//   - /demo input: chat/inputRequested with text, number, boolean,
//     single-select (free-form allowed) and multi-select questions; the
//     answers (drafts merged with chat/inputCompleted answers) are echoed
//     back; decline and cancel are answered too.
//
// # Tools
//
// ListFiles and ReadFile are the real read-only tools; they refuse any path
// outside the working directory (absolute paths, "..", symbolic links that
// escape) with an error wrapping ErrOutsideDir. They are exported so tests
// can call them directly.
package demo
