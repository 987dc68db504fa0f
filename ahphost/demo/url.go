package demo

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// "/demo url" tells a user inside `ahptui demo` how to reach this host from
// another terminal (exec, sessions, export) without the token ever being
// shown: `ahptui demo` writes the token to a file of mode 0600 and gives
// the agent the host's URL without it and that file's path; the answer
// holds commands that read the token from the file into AHPTUI_TOKEN (an
// environment variable, not a command-line argument other users could see
// in the process list).

// ConnectInfo is how other programs reach the host the agent runs in.
type ConnectInfo struct {
	// URL is the host's WebSocket URL without its token.
	URL string
	// TokenFile is the path of a file (mode 0600) holding the token; ""
	// when the host has none.
	TokenFile string
}

// connectInfo is the agent's ConnectInfo (nil until set).
type connectInfo = atomic.Pointer[ConnectInfo]

// SetConnectInfo tells the agent how its host is reached (`ahptui demo`
// calls it once the host listens). Safe for concurrent use.
func (a *Agent) SetConnectInfo(ci ConnectInfo) { a.connect.Store(&ci) }

// urlText answers "/demo url" for the session the turn runs in.
func urlText(ci *ConnectInfo, session string) string {
	if ci == nil || ci.URL == "" {
		return "This host did not tell the demo how it is reached. Under `ahptui demo`, `/demo url` names its URL and " +
			"a file holding its token; `ahptui demo --print-url` prints both for scripts; under `ahptui serve`, " +
			"use the URL it printed.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This demo host listens on `%s` (this machine only, until the demo ends).\n\n", ci.URL)
	if ci.TokenFile != "" {
		fmt.Fprintf(&b, "Its token is in `%s` (mode 0600, removed when the demo ends); it is never shown here. ", ci.TokenFile)
	}
	b.WriteString("From another terminal:\n\n```sh\n")
	if ci.TokenFile != "" {
		b.WriteString("export AHPTUI_TOKEN=\"$(cat " + shellWord(ci.TokenFile) + ")\"\n")
	}
	// The URL goes in a variable so that each line stays short enough for
	// an 80-column terminal: a wrapped command does not paste.
	fmt.Fprintf(&b, "URL=%s\n", shellWord(ci.URL))
	b.WriteString("ahptui exec \"$URL\" \"/demo tools\" --approve always\n")
	b.WriteString("ahptui sessions \"$URL\"\n")
	if session != "" {
		fmt.Fprintf(&b, "ahptui export \"$URL\" %s\n", shellWord(session))
	}
	b.WriteString("```\n")
	if session != "" {
		b.WriteString("\nThe last line exports this session.\n")
	}
	return b.String()
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
