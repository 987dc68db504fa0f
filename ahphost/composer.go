// Composer and session-config commands: `completions` (chat channel),
// `resolveSessionConfig` and `sessionConfigCompletions` (root channel).
// They ask the agent through optional interfaces; an agent without them
// gets no completions and sessions without configuration.

package ahphost

import (
	"encoding/json"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// The host's composer trigger characters ("@" files, "/" commands) and
// its terminal-command prefix.
var completionTriggers = []string{"@", "/"}

// maxCompletionText bounds the text a completions request may carry.
const maxCompletionText = 64 << 10

func init() {
	handlers[ahpwire.MethodCompletions] = withParams((*conn).completions)
	handlers[ahpwire.MethodResolveSessionConfig] = withParams((*conn).resolveSessionConfig)
	handlers[ahpwire.MethodSessionConfigCompletions] = withParams((*conn).sessionConfigCompletions)
	handlers[ahpwire.MethodAuthenticate] = withParams((*conn).authenticate)
}

// composerFeatures fills the initialize result's completion fields when
// the agent offers completions.
func (h *Host) composerFeatures(res *ahpwire.InitializeResult) {
	if hasCompletions(h.agent) {
		res.CompletionTriggerCharacters = append([]string(nil), completionTriggers...)
	}
	if t, ok := h.agent.(interface{ TerminalCommandPrefix() string }); ok {
		res.TerminalCommandPrefix = t.TerminalCommandPrefix()
	}
}

// completions answers `completions` on a chat channel.
func (c *conn) completions(p *ahpwire.CompletionsParams) (any, func(), *rpcError) {
	ce, e := c.h.st.chatOf(p.Channel)
	if e != nil {
		return nil, nil, e
	}
	if p.Kind != ahpwire.CompletionKindUserMessage {
		return nil, nil, errInvalidParams("unsupported completion kind: " + truncate(p.Kind, 64))
	}
	if len(p.Text) > maxCompletionText || p.Offset < 0 {
		return nil, nil, errInvalidParams("text too long or offset out of range")
	}
	res := ahpwire.CompletionsResult{}
	var provider, dir string
	if se := c.h.st.sessions[ce.session]; se != nil {
		provider, dir = se.state.Provider, dirOf(se.state.WorkingDirectories)
	}
	if m, ok := c.h.agent.(*muxAgent); ok {
		res.Items = m.completeFor(provider, ce.session, dir, p.Text, p.Offset)
	} else {
		res.Items = completeWith(c.h.agent, ce.session, dir, p.Text, p.Offset)
	}
	return res, nil, nil
}

// resolveSessionConfig answers `resolveSessionConfig`.
func (c *conn) resolveSessionConfig(p *ahpwire.ResolveSessionConfigParams) (any, func(), *rpcError) {
	if e := c.h.st.checkProvider(p.Provider); e != nil {
		return nil, nil, e
	}
	cfg, ok := c.h.agent.(Configurer)
	if !ok {
		return ahpwire.ResolveSessionConfigResult{Schema: ahpwire.SessionConfigSchema{Type: "object"}}, nil, nil
	}
	res, err := cfg.ResolveConfig(*p)
	if err != nil {
		return nil, nil, errInvalidParams(err.Error())
	}
	return res, nil, nil
}

// sessionConfigCompletions answers `sessionConfigCompletions`.
func (c *conn) sessionConfigCompletions(p *ahpwire.SessionConfigCompletionsParams) (any, func(), *rpcError) {
	if e := c.h.st.checkProvider(p.Provider); e != nil {
		return nil, nil, e
	}
	cfg, ok := c.h.agent.(Configurer)
	if !ok {
		return nil, nil, errInvalidParams("this host has no session configuration")
	}
	items, err := cfg.ConfigCompletions(*p)
	if err != nil {
		return nil, nil, errInvalidParams(err.Error())
	}
	return ahpwire.SessionConfigCompletionsResult{Items: items}, nil, nil
}

// checkProvider refuses a named provider the root state does not list.
func (s *store) checkProvider(p string) *rpcError {
	if p != "" && !s.knownProvider(p) {
		return &rpcError{code: ahpwire.CodeProviderNotFound, msg: "provider not found: " + truncate(p, 64)}
	}
	return nil
}

// sessionConfig validates createSession's config against the agent's
// schema and returns the session's ConfigState (nil when the agent has no
// configuration). The working directory is checked like resolveSessionConfig.
func (s *store) sessionConfig(p ahpwire.CreateSessionParams) (*ahpwire.ConfigState, *rpcError) {
	cfg, ok := s.h.agent.(Configurer)
	if !ok {
		if len(p.Config) > 0 {
			return nil, errInvalidParams("this host has no session configuration")
		}
		return nil, nil
	}
	rp := ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: p.Provider, Config: p.Config}
	if len(p.WorkingDirectories) > 0 {
		rp.WorkingDirectory = p.WorkingDirectories[0]
	}
	res, err := cfg.ResolveConfig(rp)
	if err != nil {
		return nil, errInvalidParams(err.Error())
	}
	if err := res.Schema.CheckConfig(res.Values); err != nil {
		return nil, errInvalidParams("config: " + err.Error())
	}
	schema, err := json.Marshal(res.Schema)
	if err != nil {
		return nil, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot encode config schema"}
	}
	return &ahpwire.ConfigState{Schema: schema, Values: res.Values}, nil
}

// turnConfig returns the chat's session configuration as strings for the
// agent (string values as is, others as JSON).
func (s *store) turnConfig(ce *chatEntry) map[string]string {
	se := s.sessions[ce.session]
	if se == nil || se.state.Config == nil {
		return nil
	}
	out := make(map[string]string, len(se.state.Config.Values))
	for k, v := range se.state.Config.Values {
		var str string
		if json.Unmarshal(v, &str) == nil {
			out[k] = str
		} else {
			out[k] = strings.TrimSpace(string(v))
		}
	}
	return out
}

// initSession applies createSession's resolved configuration to a new
// session, which starts read (the user who created it has seen it).
func (s *store) initSession(se *sessionEntry, cfg *ahpwire.ConfigState) {
	se.state.Config = cfg
	se.state.Status = se.state.Status.With(ahpwire.StatusIsRead, true)
}
