package demo

import (
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Channels is what a host offers a turn beyond its chat (agent.Channels).
type Channels = agent.Channels

// TerminalURI returns the demo's terminal channel URI for a turn of chat:
// scoped by the chat, so that another chat reusing the turn id never
// reaches this one's terminals.
func TerminalURI(chat, turnID, name string) string {
	return ahpwire.TerminalScheme + "/" + chatKey(chat) + "/" + turnID + "-" + name
}

// ContentURI returns the demo's resource URI for one stored content of a
// turn of chat (scoped by the chat, as TerminalURI).
func ContentURI(chat, turnID, name string) string {
	return "ahp-content:/" + chatKey(chat) + "/" + turnID + "/" + name
}

// chatKey is the chat's URI without its scheme.
func chatKey(chat string) string {
	return strings.TrimPrefix(strings.TrimPrefix(chat, ahpwire.ChatScheme), "/")
}

// noChannels is the answer of the terminal and edit scripts when the host
// offers no channels.
const noChannels = "This host does not offer terminal or changeset channels, so the demo cannot show them here."
