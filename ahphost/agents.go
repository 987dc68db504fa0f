// The host's agents: the contract types (package ahphost/agent, re-exported
// here), the default agent hook, and the routing of several agents by
// provider.

package ahphost

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Agent runs turns for the host (see package ahphost/agent for the full
// contract). The demo agent and the ACP bridge implement it.
type Agent = agent.Agent

// Turn is one turn the host hands to an Agent.
type Turn = agent.Turn

// Completer is implemented by agents that offer composer completions.
type Completer = agent.Completer

// Configurer is implemented by agents that have a session configuration.
type Configurer = agent.Configurer

// NewDefaultAgent, when set, builds the agent of a Host whose Options name
// none. The host has no agent of its own: `ahptui` passes its agents in
// Options, and tests set this to the demo agent's factory (demo.Factory).
var NewDefaultAgent func(dir string, pace time.Duration, now func() time.Time) Agent

// agentsOf returns the agents of o: Options.Agents, else Options.Agent,
// else NewDefaultAgent's.
func agentsOf(o Options) ([]Agent, error) {
	switch {
	case len(o.Agents) > 0:
		return o.Agents, nil
	case o.Agent != nil:
		return []Agent{o.Agent}, nil
	case NewDefaultAgent != nil:
		return []Agent{NewDefaultAgent(o.Dir, o.Pace, o.Now)}, nil
	}
	return nil, fmt.Errorf("ahphost: no agent (set Options.Agent or Options.Agents)")
}

// muxAgent routes by provider between several agents. With one agent the
// host uses that agent directly.
type muxAgent struct {
	agents []Agent
}

// newAgent returns the one agent, or a mux of several.
func newAgent(agents []Agent) Agent {
	if len(agents) == 1 {
		return agents[0]
	}
	return &muxAgent{agents: agents}
}

// Providers concatenates every agent's providers.
func (m *muxAgent) Providers() []ahpwire.AgentInfo {
	var out []ahpwire.AgentInfo
	for _, a := range m.agents {
		out = append(out, a.Providers()...)
	}
	return out
}

// pick returns the agent offering provider (the first agent for "").
func (m *muxAgent) pick(provider string) Agent {
	for _, a := range m.agents {
		for _, p := range a.Providers() {
			if p.Provider == provider {
				return a
			}
		}
	}
	return m.agents[0]
}

// Run runs the turn on its provider's agent.
func (m *muxAgent) Run(ctx context.Context, t Turn) error { return m.pick(t.Provider).Run(ctx, t) }

// CompleteSession asks the session's agent; the host passes the provider
// through sessionProvider.
func (m *muxAgent) completeFor(provider, session, dir, text string, offset int) []ahpwire.CompletionItem {
	return completeWith(m.pick(provider), session, dir, text, offset)
}

// ResolveConfig asks the provider's agent.
func (m *muxAgent) ResolveConfig(p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	if c, ok := m.pick(p.Provider).(Configurer); ok {
		return c.ResolveConfig(p)
	}
	return ahpwire.ResolveSessionConfigResult{Schema: ahpwire.SessionConfigSchema{Type: "object"}}, nil
}

// ConfigCompletions asks the provider's agent.
func (m *muxAgent) ConfigCompletions(p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	if c, ok := m.pick(p.Provider).(Configurer); ok {
		return c.ConfigCompletions(p)
	}
	return nil, fmt.Errorf("provider %q has no session configuration", p.Provider)
}

// hasCompletions reports whether any agent offers completions.
func (m *muxAgent) hasCompletions() bool {
	for _, a := range m.agents {
		if hasCompletions(a) {
			return true
		}
	}
	return false
}

// hasCompletions reports whether a offers completions.
func hasCompletions(a Agent) bool {
	if m, ok := a.(*muxAgent); ok {
		return m.hasCompletions()
	}
	_, c1 := a.(Completer)
	_, c2 := a.(agent.SessionCompleter)
	return c1 || c2
}

// completeWith asks a for completions of text in session (in dir).
func completeWith(a Agent, session, dir, text string, offset int) []ahpwire.CompletionItem {
	if dc, ok := a.(agent.SessionDirCompleter); ok {
		return dc.CompleteSessionIn(session, dir, text, offset)
	}
	if sc, ok := a.(agent.SessionCompleter); ok {
		return sc.CompleteSession(session, text, offset)
	}
	if c, ok := a.(Completer); ok {
		return c.Complete(text, offset)
	}
	return nil
}

// eachAgent calls fn for every agent behind a.
func eachAgent(a Agent, fn func(Agent)) {
	if m, ok := a.(*muxAgent); ok {
		for _, x := range m.agents {
			fn(x)
		}
		return
	}
	fn(a)
}

// dirOf returns the local path of a session's first working directory
// ("" when it is not a file: URI).
func dirOf(wd []string) string {
	if len(wd) == 0 {
		return ""
	}
	u, err := url.Parse(wd[0])
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return u.Path
}
