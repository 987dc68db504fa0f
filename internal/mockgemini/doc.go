// Package mockgemini is a scripted stand-in for the Gemini API's
// generateContent, served on loopback only, so Gemini CLI (`gemini --acp`)
// can run end to end without the network: point GOOGLE_GEMINI_BASE_URL at
// it (any GEMINI_API_KEY). It answers POST
// /v1beta/models/M:streamGenerateContent?alt=sse (server-sent events),
// :generateContent and :countTokens. A request that asks for JSON (a
// responseSchema: Gemini CLI's routing and next-speaker checks) gets an
// object that fits the schema ("user" for an enum offering it). Otherwise
// the text of the last user content scripts the answer:
//
//	bash: COMMAND     a call of the shell tool (run_shell_command) running
//	                  COMMAND; after its response, "The command ran." or
//	                  "The command did not run: …"
//	edit: FILE OLD => NEW
//	                  a call of the edit tool (replace) in FILE (relative to
//	                  the working directory the prompt's context states, or
//	                  absolute); then "The edit was made." or "… not made"
//	slow …            one word every 100 ms for a minute (for cancellation)
//	overloaded N …    the first N requests with this prompt answer 503
//	                  UNAVAILABLE, later ones echo it (the agent's retries)
//	down …            every request answers 503
//	anything else     "Hello from the mock. You said: " and the prompt
package mockgemini
