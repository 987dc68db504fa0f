// Package mockanthropic is a scripted stand-in for the Anthropic Messages
// API, served on loopback only, so a real agent (Claude Code through its
// ACP adapter) can run end to end without the network: point the agent's
// ANTHROPIC_BASE_URL at it.
//
// It answers HEAD / (the reachability probe Claude Code sends first),
// POST /v1/messages (streamed as server-sent events, or as one JSON
// message when the request does not ask for a stream) and
// POST /v1/messages/count_tokens. What it answers is scripted by the text
// of the last message whose role is user (Claude Code appends
// role:"system" messages after the user's turn and wraps context in
// <system-reminder> blocks; both are skipped):
//
//	think …           a thinking block, then text
//	bash: COMMAND     a Bash tool_use running COMMAND (only when the
//	                  request offers tools); after the tool_result comes
//	                  back, a final text saying how it went
//	read: FILE        a Read tool_use of FILE (relative to the working
//	                  directory the system prompt states, or absolute);
//	                  after the result, a text with its line count
//	write: FILE TEXT  a Write tool_use putting TEXT (a line) into FILE; or
//	                  "write: FILE" then the content on the next lines
//	edit: FILE OLD => NEW
//	                  a Read of FILE (Claude Code edits only files it has
//	                  read), then an Edit replacing OLD by NEW, then a
//	                  text saying whether the edit was made
//	ask: Q? A | B …   an AskUserQuestion tool_use asking Q with the options
//	                  A, B, … (only when the request offers the tool: the
//	                  adapter offers it to clients with form elicitation);
//	                  after the result, "Answer received: " and the answer
//	markdown N        N bytes of markdown streamed in 20–60-byte deltas, ending "-- end of markdown N bytes --"
//	                  (for performance measurements)
//	slow …            text streamed one word every 100 ms for a minute
//	                  (for cancellation)
//	overloaded N …    the first N requests with this prompt answer 529
//	                  overloaded_error (retry-after: 1), later ones echo it
//	                  (an agent's retries)
//	down …            every request answers 529 (an agent giving up)
//	anything else     one short text answer echoing the prompt
package mockanthropic
