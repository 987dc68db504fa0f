// Package acp bridges an Agent Client Protocol (ACP) coding agent — Claude
// Code through its adapter, Codex, Gemini CLI, Copilot, opencode, goose —
// to the embedded AHP host: a *Bridge is one agent.Agent (package
// ahphost/agent) whose turns run as ACP prompts of one agent process.
//
// # Process
//
// The agent command is started on demand (the first turn, or the first
// question about its configuration), once per Bridge;
// every ACP session of the bridge shares it. It runs in its own process
// group with the host's environment plus Config.Env; stdin/stdout carry
// ACP's newline-delimited JSON-RPC (github.com/coder/acp-go-sdk, whose
// reader bounds one line to 10 MiB and its notification queue to a fixed
// count: a longer line or a flood closes the connection instead of growing
// memory), stderr goes to the log masked, its last lines kept for errors.
// The bridge reads stdout itself and handles each session/update as it
// reads it — plain text chunks (agent_message_chunk, agent_thought_chunk)
// without the SDK, those that arrive within a few milliseconds as one AHP
// action — so the pipe holds a fast agent back and an agent's request
// reaches the SDK only after the updates sent before it (reader.go,
// chunks.go). On Linux that pipe is read outside the Go runtime's poller,
// which would wake a thread for every line (pipe_linux.go).
// The agent's requests read and not yet answered are bounded (512, and
// 40 MiB of them): beyond, the bridge reads no more of the agent's output
// until answers were written, so an agent that floods requests without
// reading the answers holds a bounded number of host goroutines and
// bytes; one that stops reading its stdin is stopped after
// Config.StdinTimeout, its turn failing with the reason (unanswered.go).
// initialize and every request but session/prompt run under
// Config.RequestTimeout. Close (and the host's shutdown) kills the whole
// process group and reaps it. A process that exits mid-turn ends the turn
// with a chat/error quoting its last stderr lines; the next turn starts a
// new process and resumes the session (session/load or session/resume when
// the agent offers them, else a fresh ACP session with a notice, its first
// prompt opening with the chat's latest turns: history.go; the same after
// a host restart).
//
// # Mapping
//
// createSession → session/new {cwd, mcpServers: []} (lazily, at the
// session's first turn); chat/turnStarted → session/prompt (text, and the
// attachments as resource links, or embedded resources when the agent's
// promptCapabilities allow); chat/turnCancelled → session/cancel. Stop
// reasons: end_turn → chat/turnComplete; refusal, max_tokens and
// max_turn_requests → chat/error saying so; cancelled → chat/turnCancelled.
// agent_message_chunk → a markdown part and chat/delta; agent_thought_chunk
// → a reasoning part; plan → one "Plan" tool call whose checklist content
// is replaced in place; usage → chat/usage; available_commands_update → "/"
// completions; session_info_update → the session title. tool_call and
// tool_call_update → chat/toolCallStart, Ready, ContentChanged and Complete
// (title, kind, raw input, content: text, diffs as fileEdit with both sides
// served by resourceRead, terminals as terminal content, locations).
// session/request_permission → a pending confirmation carrying the agent's
// own options (kind approve/deny, the agent's labels); the client's choice
// (selectedOptionId, or the first allow-once / reject-once option for a
// plain approve or deny) goes back; the host lets only the first client's
// answer through. fs/read_text_file and fs/write_text_file are served inside
// the session's working directory only (absolute paths, no "..", no symbolic
// link leaving it, Config.MaxFileBytes); every write records the file's
// before and after content in the chat's "Session changes" changeset.
// terminal/* run in host-owned ptys shown as ahp-terminal: channels.
// Modes, models and select/boolean config options of the last session/new
// are the provider's session configuration (ACP tells them only there, so
// the first resolveSessionConfig starts the agent and opens a spare
// session that the next new session in that directory uses); a changed
// value is applied at once with session/set_mode, session/set_model or
// session/set_config_option (agent.ConfigApplier), else before the next
// prompt. When the agent changes them itself during a turn
// (current_mode_update, config_option_update), the host is told through
// agent.ConfigHooks, so subscribed clients see the new values or schema
// and the next prompt does not set the old mode back (configreport.go).
//
// # Sign-in
//
// An "auth required" answer (-32000) to session/new or session/prompt
// turns the agent's authMethods into protected resources
// (acp-auth:/NAME/METHOD, named after the method, its description as the
// documentation) that the host lists in the provider's
// AgentInfo.protectedResources and announces with auth/required
// (agent.AuthHooks); the turn fails with the agent's own words. A client's
// authenticate for one of them becomes ACP authenticate {methodId}
// (agent.Authenticator); for an env_var method the token is first set as
// the variable and the agent restarted. Tokens live in memory only and are
// masked in everything the agent writes to the log. An agent without auth
// methods just fails the turn with its message.
//
// # Restarts
//
// With Config.StateDir set, the bridge keeps an index of its sessions
// (AHP URI, ACP session id, working directory, title) in
// StateDir/acp-NAME.json; StoredSessions lists them to the host after a
// restart.
package acp
