package demo

import (
	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Channels is what a host offers a turn beyond its chat (agent.Channels).
type Channels = agent.Channels

// TerminalURI returns the demo's terminal channel URI for a turn.
func TerminalURI(turnID, name string) string {
	return ahpwire.TerminalScheme + "/" + turnID + "-" + name
}

// ContentURI returns the demo's resource URI for one stored content.
func ContentURI(turnID, name string) string {
	return "ahp-content:/" + turnID + "/" + name
}

// noChannels is the answer of the terminal and edit scripts when the host
// offers no channels.
const noChannels = "This host does not offer terminal or changeset channels, so the demo cannot show them here."
