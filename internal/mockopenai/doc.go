// Package mockopenai is a scripted stand-in for two OpenAI APIs, served on
// loopback only, so agents that speak them run end to end without the
// network: chat completions (POST /v1/chat/completions, streamed or not:
// opencode through its openai-compatible provider) and Responses (POST
// /v1/responses, streamed as response.created, output_item.added,
// output_text.delta, function_call_arguments / custom_tool_call_input
// deltas, output_item.done, response.completed: Codex with a model
// provider whose wire_api is "responses"). The text of the last user
// message scripts the answer (Codex's context, user messages wrapped in
// tags, is skipped); a tool's result (a tool message, a
// function_call_output) gets the text that follows it:
//
//	bash: COMMAND     a call of the shell tool ("bash", "shell" or
//	                  "run_shell_command" in chat completions; Codex's
//	                  exec_command, shell_command or shell, asking to run
//	                  outside the sandbox so the user is asked) running
//	                  COMMAND; then "The command ran." or "The command did
//	                  not run: …"
//	edit: FILE OLD => NEW
//	                  a call of the edit tool ("edit", in the working
//	                  directory the system prompt states; Codex's
//	                  apply_patch with an Update File patch) replacing OLD
//	                  by NEW in FILE; then "The edit was made." or "The
//	                  edit was not made: …"
//	slow …            one word every 100 ms for a minute
//	overloaded N …    the first N requests with this prompt answer 429,
//	                  later ones echo it; down … always 503
//	… {"title" …      (Responses: a request for the chat's title, as
//	                  codex-acp sends) {"title": "Mock: " and the first
//	                  words of the prompt's last line}
//	anything else     "Hello from the mock. You said: " and the prompt
package mockopenai
