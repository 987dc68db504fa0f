// Package agents knows which ACP coding agents ahptui's host can run and
// how to start them: a built-in catalog of the usual ones (Claude Code,
// Codex, Gemini CLI, GitHub Copilot CLI, opencode, goose) with their
// install hints, the config file's [agents.NAME] tables, and the
// command-line form NAME=COMMAND, whose COMMAND is split into words the
// way a POSIX shell would (quotes, backslashes) without running a shell.
package agents
