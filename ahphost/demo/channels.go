package demo

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Channels is what a host offers a turn beyond its chat: terminal and
// changeset channels it can create and drive, and a resource store whose
// entries clients read with resourceRead. Every method applies and
// broadcasts at once, like Turn.Emit, and is called from Run's goroutine
// only. A nil Turn.Channels means the host offers none.
type Channels interface {
	// OpenTerminal creates (or replaces) the terminal channel uri with
	// state st and lists it in the root state's terminals.
	OpenTerminal(uri string, st ahpwire.TerminalState)
	// Terminal applies one terminal action to the terminal channel uri.
	Terminal(uri string, a ahpwire.Action)
	// PutResource stores data under uri for resourceRead.
	PutResource(uri, contentType string, data []byte)
	// Changeset creates the changeset channel uri with state st, or
	// replaces its content (changeset/contentChanged) when it exists.
	Changeset(uri string, st ahpwire.ChangesetState, reviewable bool)
}

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
