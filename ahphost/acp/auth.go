// ACP sign-in mapped to AHP's auth flow. An agent that answers "auth
// required" (-32000) to session/new or session/prompt gets one protected
// resource per ACP auth method (acp-auth:/<agent>/<methodId>); the host
// lists them in the agent's AgentInfo.protectedResources and sends
// auth/required, so a client shows its sign-in prompt. A client's
// `authenticate {resource, token}` becomes ACP `authenticate {methodId}`;
// for an env_var method the token is the variable's value: the agent is
// restarted with it first. The token is never logged: every line the
// agent writes to stderr is masked with it.

package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/redact"
)

var _ agent.Authenticator = (*Bridge)(nil)

// ResourceScheme prefixes the protected resources of ACP auth methods.
const ResourceScheme = "acp-auth:"

// authState is what the bridge keeps of sign-ins: the environment an
// env_var method adds to the agent's process (its secrets) and a masker
// that hides them.
type authState struct {
	mu     sync.Mutex
	env    map[string]string // variable → value, from env_var sign-ins
	masker redact.Masker
}

// environ returns the "KEY=VALUE" entries of env_var sign-ins.
func (a *authState) environ() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.env))
	for k, v := range a.env {
		out = append(out, k+"="+v)
	}
	return out
}

// mask hides the sign-in secrets (and recognisable credentials) in s.
func (a *authState) mask(s string) string {
	a.mu.Lock()
	m := a.masker
	a.mu.Unlock()
	return m.String(s)
}

// authRequiredError is an agent's "auth required" answer.
type authRequiredError struct {
	msg     string // the agent's own words
	methods []sdk.AuthMethod
}

func (e *authRequiredError) Error() string {
	return "the agent needs you to sign in: " + e.msg + authHint(e.methods)
}

// resourceURI names the protected resource of an auth method.
func (b *Bridge) resourceURI(methodID string) string {
	return ResourceScheme + "/" + url.PathEscape(b.cfg.Name) + "/" + url.PathEscape(methodID)
}

// methodOf returns the method id of one of this agent's resources.
func (b *Bridge) methodOf(resource string) (string, bool) {
	prefix := ResourceScheme + "/" + url.PathEscape(b.cfg.Name) + "/"
	rest, ok := strings.CutPrefix(resource, prefix)
	if !ok || rest == "" {
		return "", false
	}
	id, err := url.PathUnescape(rest)
	return id, err == nil && id != ""
}

// methodInfo is the id, name, description and kind of an auth method.
type methodInfo struct {
	id, name, desc string
	envVars        []sdk.AuthEnvVar // env_var methods
	terminal       []string         // terminal methods: the arguments to run
}

func infoOf(m sdk.AuthMethod) (methodInfo, bool) {
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	switch {
	case m.Agent != nil:
		return methodInfo{id: m.Agent.Id, name: m.Agent.Name, desc: deref(m.Agent.Description)}, true
	case m.EnvVar != nil:
		d := deref(m.EnvVar.Description)
		if l := deref(m.EnvVar.Link); l != "" {
			d = strings.TrimSpace(d + " Get one at " + l)
		}
		return methodInfo{id: m.EnvVar.Id, name: m.EnvVar.Name, desc: d, envVars: m.EnvVar.Vars}, true
	case m.Terminal != nil:
		return methodInfo{id: m.Terminal.Id, name: m.Terminal.Name, desc: deref(m.Terminal.Description), terminal: m.Terminal.Args}, true
	}
	return methodInfo{}, false
}

// protectedResources maps the agent's auth methods to AHP resources.
func (b *Bridge) protectedResources(methods []sdk.AuthMethod) []ahpwire.ProtectedResourceMetadata {
	var out []ahpwire.ProtectedResourceMetadata
	for _, m := range methods {
		mi, ok := infoOf(m)
		if !ok || mi.id == "" {
			continue
		}
		doc := mi.desc
		switch {
		case len(mi.envVars) > 0:
			doc = joinSentences(doc, "The token is the value of "+mi.envVars[0].Name+
				"; the agent restarts with it (the host keeps it in memory only).")
		case mi.terminal != nil:
			doc = joinSentences(doc, "Sign in first by running `"+strings.TrimSpace(b.cfg.Command+" "+strings.Join(mi.terminal, " "))+
				"` in a terminal, then send any text (for example `ok`) as the token.")
		default:
			doc = joinSentences(doc, "The agent signs in by itself (it may open a browser); send any text (for example `ok`) as the token.")
		}
		out = append(out, ahpwire.ProtectedResourceMetadata{
			Resource:              b.resourceURI(mi.id),
			ResourceName:          firstNonEmpty(mi.name, mi.id) + " (" + b.cfg.Title + ")",
			ResourceDocumentation: doc,
		})
	}
	return out
}

func joinSentences(a, b string) string {
	a = strings.TrimSpace(a)
	if a == "" {
		return b
	}
	if !strings.HasSuffix(a, ".") {
		a += "."
	}
	return a + " " + b
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// authFailure starts AHP's sign-in flow for an "auth required" error of a
// turn: the agent's methods become protected resources (the host sends
// auth/required). The turn still fails with the agent's own words and
// what to do next.
func (b *Bridge) authFailure(t agent.Turn, err error) error {
	var ae *authRequiredError
	if !errors.As(err, &ae) {
		return err
	}
	res := b.protectedResources(ae.methods)
	hooks, ok := t.SessionHooks.(agent.AuthHooks)
	if len(res) == 0 || !ok {
		return err
	}
	hooks.RequireAuth(res)
	names := make([]string, len(res))
	for i, r := range res {
		names[i] = r.ResourceName
	}
	var vars []string
	for _, m := range ae.methods {
		if mi, ok := infoOf(m); ok && len(mi.envVars) > 0 {
			vars = append(vars, mi.envVars[0].Name)
		}
	}
	alt := ""
	if len(vars) > 0 {
		alt = " (or set " + strings.Join(vars, " or ") + " where the host runs)"
	}
	return fmt.Errorf("the agent needs you to sign in: %s. Sign in with %s%s, then send your message again",
		ae.msg, strings.Join(names, " or "), alt)
}

// Authenticate signs in to one of the agent's auth methods: ACP
// authenticate {methodId}, after a restart with the token as the
// variable's value for an env_var method. An empty token forgets an
// env_var method's value (the agent restarts without it). The token is
// never logged.
func (b *Bridge) Authenticate(ctx context.Context, resource, token string) error {
	id, ok := b.methodOf(resource)
	if !ok {
		return fmt.Errorf("%s is not a sign-in method of %s", resource, b.cfg.Name)
	}
	if err := checkToken(token); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.RequestTimeout)
	defer cancel()
	p, err := b.getProc(ctx)
	if err != nil {
		if token == "" && b.signOutOffline(id) {
			return nil
		}
		return err
	}
	var mi methodInfo
	found := false
	for _, m := range p.init.AuthMethods {
		if x, ok := infoOf(m); ok && x.id == id {
			mi, found = x, true
		}
	}
	if !found {
		return fmt.Errorf("the agent no longer offers the sign-in method %q", id)
	}
	if len(mi.envVars) > 0 {
		if p, err = b.restartWith(ctx, p, mi.envVars[0].Name, token); err != nil {
			return err
		}
	} else if token == "" {
		return b.logout(ctx, p) // the agent's own login
	}
	if _, err := p.conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: id}); err != nil {
		var re *sdk.RequestError
		if len(mi.envVars) > 0 && errors.As(err, &re) && re.Code == -32601 {
			return nil // the variable is the sign-in
		}
		b.log.Info("authenticate refused", "method", id)
		return fmt.Errorf("the agent refused the sign-in: %w", b.requestError("authenticate", err, p))
	}
	b.log.Info("authenticated", "method", id)
	return nil
}

// logout ends the agent's own login (an agent method's sign-in) with ACP's
// logout, when the agent offers it; else it says the agent keeps it.
func (b *Bridge) logout(ctx context.Context, p *proc) error {
	if p.init.AgentCapabilities.Auth.Logout == nil {
		return fmt.Errorf("%s keeps its own sign-in and offers no sign-out to the host; sign out with its own command", b.cfg.Name)
	}
	if _, err := p.conn.Logout(ctx, sdk.LogoutRequest{}); err != nil {
		return fmt.Errorf("the agent refused the sign-out: %w", b.requestError("logout", err, p))
	}
	b.log.Info("signed out", "agent", b.cfg.Name)
	return nil
}

// checkToken refuses a token with a control character or invalid UTF-8
// before anything keeps it: an environment variable holding a NUL byte
// fails every later start of the agent.
func checkToken(token string) error {
	if !utf8.ValidString(token) {
		return errors.New("the token is not valid UTF-8; paste it again")
	}
	for i, r := range token {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("the token holds a control character (%U at byte %d); paste it again without it", r, i)
		}
	}
	return nil
}

// signOutOffline forgets an env_var sign-in while the agent cannot start
// (a sign-in it cannot start with, for one): the next start goes without
// it. It reports whether id was such a method of the last agent started.
func (b *Bridge) signOutOffline(id string) bool {
	b.mu.Lock()
	methods := b.methods
	b.mu.Unlock()
	for _, m := range methods {
		mi, ok := infoOf(m)
		if !ok || mi.id != id || len(mi.envVars) == 0 {
			continue
		}
		b.auth.mu.Lock()
		delete(b.auth.env, mi.envVars[0].Name)
		b.auth.mu.Unlock()
		b.log.Info("signed out while the agent cannot start", "variable", mi.envVars[0].Name)
		return true
	}
	return false
}

// restartWith sets (or, with an empty value, removes) an environment
// variable of the agent and restarts it; sessions resume on their next
// turn.
func (b *Bridge) restartWith(ctx context.Context, p *proc, name, value string) (*proc, error) {
	b.auth.mu.Lock()
	if b.auth.env == nil {
		b.auth.env = map[string]string{}
	}
	if value == "" {
		delete(b.auth.env, name)
	} else {
		b.auth.env[name] = value
		b.auth.masker = b.auth.masker.With(value)
	}
	b.auth.mu.Unlock()
	b.log.Info("restarting the agent with a sign-in variable", "variable", name)
	p.kill()
	select {
	case <-p.exited:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.getProc(ctx)
}
