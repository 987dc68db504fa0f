// Package mockopenai is a scripted stand-in for the OpenAI chat
// completions API (POST /v1/chat/completions, streamed or not), served on
// loopback only, so agents that speak it (opencode through its
// openai-compatible provider) run end to end without the network. The
// text of the last user message scripts the answer; a tool message (the
// result of the mock's call) gets the text that follows it:
//
//	bash: COMMAND     a call of the shell tool ("bash", or "shell" /
//	                  "run_shell_command", whichever is offered) running
//	                  COMMAND; then "The command ran." or "The command did
//	                  not run: …"
//	edit: FILE OLD => NEW
//	                  a call of the edit tool ("edit") replacing OLD by NEW
//	                  in FILE (relative paths: in the working directory the
//	                  system prompt states); then "The edit was made." or
//	                  "The edit was not made: …"
//	slow …            one word every 100 ms for a minute
//	overloaded N …    the first N requests with this prompt answer 429,
//	                  later ones echo it; down … always 503
//	anything else     "Hello from the mock. You said: " and the prompt
package mockopenai
