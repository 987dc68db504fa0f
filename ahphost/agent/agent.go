// Package agent is the contract between the embedded AHP host (package
// ahphost) and the agents that run its turns: the scripted demo agent
// (ahphost/demo) and the ACP bridge (ahphost/acp). It holds only types; the
// host re-exports them (ahphost.Agent, ahphost.Turn, ...), and neither the
// host nor an agent imports the other.
//
// # The contract
//
// The host lists every agent's Providers in RootState.agents; a session is
// bound to the provider createSession named (the first one by default), and
// every turn of its chats runs through that provider's Agent:
//
//	err := a.Run(ctx, agent.Turn{Chat: chatURI, TurnID: id, Text: text,
//		Session: sessionURI, Provider: provider, Dir: cwd, Emit: emit, Client: client})
//
// Emit is called only from Run's goroutine (or goroutines Run waits for) and
// never after Run returns. Every action is a server-originated chat action of
// the turn (chat/responsePart, chat/delta, chat/reasoning, chat/toolCall*,
// chat/inputRequested, chat/usage, chat/turnComplete, chat/error).
//
// Client carries the client-dispatched actions the host accepted for the
// chat (chat/toolCallConfirmed, chat/toolCallResultConfirmed,
// chat/inputAnswerChanged, chat/inputCompleted, chat/pendingMessageSet ...);
// the host validates and reduces them first, so of two clients answering one
// confirmation only the first answer reaches the agent. Read it without
// blocking the host for long: the host drops actions when its buffer is full.
//
// Run returns nil once it has emitted chat/turnComplete or chat/error. On ctx
// cancellation (chat/turnCancelled, dispose, shutdown) it stops promptly,
// starts no further Emit and returns ctx.Err(); the host emits
// chat/turnCancelled itself. A non-nil error with the turn still active ends
// the turn with a chat/error carrying the error's text (ErrClientClosed gets
// a fixed message).
//
// Optional interfaces add features: Completer / SessionCompleter (composer
// completions), Configurer (session configuration), SessionCloser (dispose),
// SessionLister (sessions kept across host restarts).
package agent

import (
	"context"
	"errors"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Agent runs turns for the host.
type Agent interface {
	// Providers lists the agents shown in RootState.agents.
	Providers() []ahpwire.AgentInfo
	// Run streams one turn through t.Emit (see the package contract).
	Run(ctx context.Context, t Turn) error
}

// ErrClientClosed is returned by Run when Turn.Client is closed while the
// agent waits for a client decision (a confirmation or input answers).
var ErrClientClosed = errors.New("agent: client action channel closed")

// ReplyTailBytes bounds Turn.ReplyTail.
const ReplyTailBytes = 1000

// Turn is one turn the host hands to an Agent.
type Turn struct {
	// Chat is the chat channel URI.
	Chat string
	// Session is the session channel URI the chat belongs to.
	Session string
	// Provider is the session's provider (one of the agent's Providers).
	Provider string
	// Dir is the session's working directory as a local path ("" when the
	// session has none or it is not a file: URI).
	Dir string
	// TurnID is the active turn's id; every emitted action carries it.
	TurnID string
	// Text is the user message text.
	Text string
	// Attachments are the user message's attachments.
	Attachments []ahpwire.MessageAttachment
	// Resume is true when the host runs the turn again after chat/turnResume.
	Resume bool
	// Parts are the response parts a resumed turn holds already (Resume):
	// what ran before it stopped, the error part that stopped it last. The
	// turn's new parts continue them (their ids must not repeat theirs).
	// Read only.
	Parts []ahpwire.ResponsePart
	// ReplyTail is the end of the text a resumed turn's reply showed when
	// it stopped (at most ReplyTailBytes; "" when it showed none), for an
	// agent to continue it where it stopped.
	ReplyTail string
	// StartedAt is the turn's startedAt; durations are measured from it.
	// For a resumed turn it is moved later by the time the turn was not
	// running (interrupted, or ended with a resumable error), so that a
	// duration counts only the time it ran. Zero means "when Run was
	// called".
	StartedAt time.Time
	// Emit delivers one server-originated chat action. The host stamps the
	// envelope and serverSeq, reduces and broadcasts it.
	Emit func(ahpwire.Action)
	// Client carries client-dispatched actions the host accepted for this
	// chat. Actions for other turns or ids are ignored by agents.
	Client <-chan ahpwire.Action
	// Config holds the session's configuration values as strings (string
	// values as is, others as JSON); nil means defaults.
	Config map[string]string
	// Subagent, when set, starts a child chat running a prompt as a
	// subagent of this turn; nil means the host has none.
	Subagent SubagentFunc
	// Channels drives terminal and changeset channels and the resource
	// store; nil when the host offers none.
	Channels Channels
	// Session hooks change the session the turn runs in (title); nil when
	// the host offers none.
	SessionHooks SessionHooks
}

// Channels is what a host offers a turn beyond its chat: terminal and
// changeset channels it can create and drive, and a resource store whose
// entries clients read with resourceRead. Every method applies and
// broadcasts at once, like Turn.Emit. Methods are safe for concurrent use.
type Channels interface {
	// OpenTerminal creates (or replaces) the terminal channel uri with
	// state st and lists it in the root state's terminals. A uri under
	// ahp-terminal:/KEY/ or ahp-terminal:/KEY-, KEY being the chat URI's
	// path, belongs to that chat: it is deleted with its session.
	OpenTerminal(uri string, st ahpwire.TerminalState)
	// Terminal applies one terminal action to the terminal channel uri.
	Terminal(uri string, a ahpwire.Action)
	// PutResource stores data under uri for resourceRead. A uri under
	// ahp-content:/KEY/ or ahp-content:/acp/KEY/, KEY being the chat URI's
	// path, belongs to that chat: it is deleted with its session.
	PutResource(uri, contentType string, data []byte)
	// Changeset creates the changeset channel uri with state st, or
	// replaces its content (changeset/contentChanged) when it exists. A uri
	// under ahp-changeset:/KEY/ belongs to the chat of path KEY, as above.
	Changeset(uri string, st ahpwire.ChangesetState, reviewable bool)
}

// ChannelReader is implemented by Channels that let a turn read back what
// the host keeps of it (ACP: after a host restart the bridge starts its
// record of a session's changed files again from the session's changeset,
// and gives an agent session that replaced one the agent could not resume
// the chat's earlier turns).
type ChannelReader interface {
	// ChangesetState returns the state of changeset uri, if it exists.
	ChangesetState(uri string) (ahpwire.ChangesetState, bool)
	// ReadResource returns the content stored under uri, if any.
	ReadResource(uri string) ([]byte, bool)
	// ChatTurns returns the finished turns of chat as the host keeps them,
	// oldest first (a long reply's pages are contentRef parts: read them
	// with ReadResource). Read only.
	ChatTurns(chat string) []ahpwire.Turn
}

// Annotator is implemented by Channels that let the agent comment on the
// session's files: Annotate applies one annotations/* action to the
// annotations channel of session (ahpwire.AnnotationsURI). An action a
// client could not dispatch either (unknown annotation, out of bounds) is
// dropped.
type Annotator interface {
	Annotate(session string, a ahpwire.Action)
}

// TerminalInputs is implemented by Channels that let the agent receive what
// clients type into a terminal it owns: a client may claim such a terminal
// (terminal/claimed for itself) and its terminal/input is handed to the
// handler, in order, with the host lock held: the handler must not block.
type TerminalInputs interface {
	// OnTerminalInput registers (nil removes) the input handler of uri.
	OnTerminalInput(uri string, handler func(data string))
}

// TerminalResizes is implemented by Channels that tell the agent when a
// client resizes a terminal it types into (terminal/resized), to resize
// the pty behind it. The handler runs with the host lock held and must not
// block. The host refuses clients' resizes of a terminal that has an input
// handler (TerminalInputs) but no resize handler: its size is the agent's.
// The sizes handed over are within the host's terminal limits (positive,
// at most ahpstate's MaxTerminalCols by MaxTerminalRows).
type TerminalResizes interface {
	// OnTerminalResize registers (nil removes) the resize handler of uri.
	OnTerminalResize(uri string, handler func(cols, rows int))
}

// SessionHooks change the session a turn runs in.
type SessionHooks interface {
	// SetTitle renames the session (session/titleChanged).
	SetTitle(title string)
}

// SubagentRequest asks the host for a child chat that runs Prompt.
type SubagentRequest struct {
	// ToolCallID is the parent's tool call the subagent belongs to.
	ToolCallID string
	// Title names the child chat.
	Title string
	// Prompt is the child's first message.
	Prompt string
}

// SubagentHandle is a running subagent: its chat and a channel closed when
// the child's turn has ended.
type SubagentHandle struct {
	Chat string
	Done <-chan struct{}
}

// SubagentFunc starts a subagent chat (see Turn.Subagent).
type SubagentFunc func(ctx context.Context, req SubagentRequest) (SubagentHandle, error)
