package demo

import "strings"

// TerminalPrefix starts a message the demo runs as a terminal command
// (advertised as InitializeResult.terminalCommandPrefix).
const TerminalPrefix = "!"

// TerminalCommandPrefix returns TerminalPrefix (the host advertises it).
func (a *Agent) TerminalCommandPrefix() string { return TerminalPrefix }

// terminal runs "!cmd": the demo's terminal is read-only, so only
// "!ls [path]" and "!cat path" run (as list_files / read_file calls).
func (r *run) terminal() error {
	fields := strings.Fields(r.cmd.word)
	if len(fields) == 0 {
		return r.answerOnly("Type a command after `!`, for example `!ls` or `!cat README.md`.\n")
	}
	switch fields[0] {
	case "ls":
		path := "."
		if len(fields) > 1 {
			path = fields[1]
		}
		if _, _, err := r.listFilesTool(path); err != nil {
			return err
		}
		return r.complete()
	case "cat":
		if len(fields) < 2 {
			return r.answerOnly("`!cat` needs a file name.\n")
		}
		if _, _, err := r.readFileTool(fields[1]); err != nil {
			return err
		}
		return r.complete()
	}
	return r.answerOnly("The demo terminal is read-only: it runs `!ls [path]` and `!cat file`, not " +
		inlineCode(shortPrompt(r.cmd.word, 60)) + ".\n")
}
