package agent

import (
	"context"
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// Completer is implemented by agents that offer composer completions.
type Completer interface {
	// Complete returns items for text with the cursor at offset (UTF-16).
	Complete(text string, offset int) []ahpwire.CompletionItem
}

// SessionCompleter is implemented by agents whose completions depend on the
// session (ACP agents announce their own slash commands per session). The
// host prefers it to Completer.
type SessionCompleter interface {
	// CompleteSession returns items for text in session at offset (UTF-16).
	CompleteSession(session, text string, offset int) []ahpwire.CompletionItem
}

// SessionDirCompleter is a SessionCompleter that also takes the session's
// working directory (a local path, "" when it has none), so that it can
// complete before the session's first turn (ACP: "@" offers its files).
// The host prefers it to SessionCompleter.
type SessionDirCompleter interface {
	// CompleteSessionIn returns items for text in session at offset (UTF-16).
	CompleteSessionIn(session, dir, text string, offset int) []ahpwire.CompletionItem
}

// Configurer is implemented by agents that have a session configuration.
type Configurer interface {
	// ResolveConfig returns the schema and the values with defaults applied.
	ResolveConfig(p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error)
	// ConfigCompletions returns values of one property matching a query.
	ConfigCompletions(p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error)
}

// ConfigApplier is implemented by agents that apply a changed session
// configuration at once (ACP: session/set_mode, set_model,
// set_config_option). The host calls it outside its lock, on its own
// goroutine, after it accepted a client's session/configChanged; values
// are the session's whole configuration as Turn.Config carries it.
type ConfigApplier interface {
	ApplyConfig(session string, values map[string]string)
}

// SessionCloser is implemented by agents that keep state per session; the
// host calls CloseSession (outside its lock) after disposeSession.
type SessionCloser interface {
	CloseSession(session string)
}

// StoredSession is a session an agent kept across a host restart.
type StoredSession struct {
	// URI is the AHP session channel URI.
	URI string
	// Provider is the agent's provider id.
	Provider string
	// Title is the last known title.
	Title string
	// Dir is the working directory (a local path).
	Dir string
	// CreatedAt is an ISO-8601 timestamp.
	CreatedAt string
}

// SessionLister is implemented by agents that keep an index of their
// sessions; the host lists them (ready, with an empty default chat) when it
// starts, and their next turn resumes the agent's session.
type SessionLister interface {
	StoredSessions() []StoredSession
}

// SessionOpener is implemented by agents that bring back the history of a
// stored session (ACP: session/load replays it). The host calls
// OpenSession once, on its own goroutine, when a client first subscribes
// to a chat of such a session; restore prepends the turns to the session's
// default chat (chat/turnsLoaded). ctx ends with the host.
type SessionOpener interface {
	OpenSession(ctx context.Context, session string, restore func([]ahpwire.Turn))
}

// Closer is implemented by agents that own processes or files; the host
// calls Close once when it shuts down.
type Closer interface {
	Close() error
}

// AuthHooks is implemented by the SessionHooks of hosts that run AHP's
// sign-in flow. An agent that learns it needs a login (ACP: -32000 auth
// required) calls RequireAuth: the host lists resources as the provider's
// AgentInfo.protectedResources (root/agentsChanged), forgets earlier
// sign-ins to them, and sends auth/required for each to root subscribers.
type AuthHooks interface {
	RequireAuth(resources []ahpwire.ProtectedResourceMetadata)
}

// Authenticator is implemented by agents whose protected resources are
// signed in through the agent itself (ACP authenticate). The host calls it
// outside its lock for a client's `authenticate` on one of the agent's
// resources; an error refuses the request (-32007 AuthRequired, the
// error's text as the message). An empty token signs out. Implementations
// never log or echo the token.
type Authenticator interface {
	Authenticate(ctx context.Context, resource, token string) error
}

// ArtifactHooks is implemented by the SessionHooks of hosts that keep AHP
// 1.1 session artifacts (SessionState.artifacts): the durable items a
// session produced, references or derives its work from. SetArtifact
// upserts one by its key (session/artifactSet), RemoveArtifact removes the
// artifact with that key (session/artifactRemoved); both are sequenced,
// replayed and kept in snapshots like every session action.
type ArtifactHooks interface {
	SetArtifact(a ahpwire.SessionArtifact)
	RemoveArtifact(id string)
}

// ConfigHooks is implemented by the SessionHooks of hosts whose sessions'
// configuration may change after creation: an agent whose modes, models or
// options changed (ACP config_option_update, the demo's /demo config)
// calls SetConfig with the new schema and values (or the same schema and
// new values, as when the agent switched its own mode). The host replaces
// the session's configuration, validates later session/configChanged
// against it, and tells subscribed clients: session/stateReplaced for a new
// schema (AHP has no narrower action carrying one), session/configChanged
// for new values. Values for properties the schema does not list are
// dropped; SetConfig fails when the rest do not satisfy the schema or the
// turn has ended.
type ConfigHooks interface {
	SetConfig(schema ahpwire.SessionConfigSchema, values map[string]json.RawMessage) error
}
