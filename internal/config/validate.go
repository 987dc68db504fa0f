package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// hostName is what a host may be called (it follows @ on the command line).
var hostName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// envName is a portable environment variable name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// paramName is a token query parameter name: plain, no escaping needed.
var paramName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Notification settings.
var (
	desktopKinds = []string{"", "off", "osc9", "osc777", "osc99"}
	notifyEvents = []string{"needs-input", "turn-end", "error"}
)

// validator collects mistakes with their lines.
type validator struct {
	path string
	doc  []byte
	errs Errors
}

func (v *validator) add(key string, format string, args ...any) {
	v.errs = append(v.errs, &Error{File: v.path, Line: lineOfKey(v.doc, splitKey(key)), Key: key, Msg: fmt.Sprintf(format, args...)})
}

// validate checks values the TOML types cannot express.
func (f *File) validate(path string, doc []byte) Errors {
	v := &validator{path: path, doc: doc}
	switch f.Theme {
	case "", "auto", "dark", "light":
	default:
		v.add("theme", "%q is not a theme (auto, dark or light)", f.Theme)
	}
	if f.Default != "" {
		if _, ok := f.Hosts[f.Default]; !ok {
			v.add("default", "no host named %q (define [hosts.%s])", f.Default, f.Default)
		}
	}
	if !oneOf(f.Notify.Desktop, desktopKinds) {
		v.add("notify.desktop", "%q is not one of off, osc9, osc777, osc99", f.Notify.Desktop)
	}
	for _, e := range f.Notify.Events {
		if !oneOf(e, notifyEvents) {
			v.add("notify.events", "%q is not one of %s", e, strings.Join(notifyEvents, ", "))
		}
	}
	for k, val := range f.Keys {
		key := "keys." + strconv.Quote(k)
		if _, err := KeyList(val); err != nil {
			v.add(key, "%v", err)
		}
		if ctx, action, ok := strings.Cut(k, "."); !ok || ctx == "" || action == "" {
			v.add(key, "a key override is named context.action (e.g. global.quit)")
		}
	}
	for _, name := range f.HostNames() {
		f.Hosts[name].validate(v, name)
	}
	for _, name := range f.AgentNames() {
		f.Agents[name].validate(v, name)
	}
	f.Serve.validate(v)
	return v.errs
}

// validate checks the [serve] table: one watch token source at most, a
// valid variable name, no token in clear unless allowed.
func (s Serve) validate(v *validator) {
	n := 0
	for _, t := range []string{s.WatchTokenEnv, s.WatchTokenCmd, s.WatchToken} {
		if t != "" {
			n++
		}
	}
	if n > 1 {
		v.add("serve", "set one of watch_token_env, watch_token_cmd and watch_token")
	}
	if s.WatchTokenEnv != "" && !envName.MatchString(s.WatchTokenEnv) {
		v.add("serve.watch_token_env", "%q is not an environment variable name", s.WatchTokenEnv)
	}
	if s.WatchToken != "" && !s.AllowPlaintextToken {
		v.add("serve.watch_token", "tokens are not stored in clear: use watch_token_env or watch_token_cmd "+
			"(or set allow_plaintext_token to true in [serve])")
	}
}

// validate checks one host.
func (h Host) validate(v *validator, name string) {
	key := "hosts." + name
	if !hostName.MatchString(name) {
		v.add(key, "host names use letters, digits, '.', '_' and '-'")
	}
	switch {
	case h.URL == "" && h.SSH == "":
		v.add(key, "a host needs url or ssh")
	case h.URL != "" && h.SSH != "":
		v.add(key+".ssh", "set url or ssh, not both")
	case h.URL != "":
		if err := CheckURL(h.URL); err != nil {
			v.add(key+".url", "%v", err)
		}
		if h.Socket != "" || h.Port != 0 || h.Start != nil || h.RemoteBin != "" || h.Release != "" || len(h.Agents) > 0 {
			v.add(key+".url", "socket, port, start, remote_bin, release and agents apply to ssh hosts only")
		}
	default:
		if _, _, _, err := SplitSSH(h.SSH); err != nil {
			v.add(key+".ssh", "%v", err)
		}
		if h.Port < 0 || h.Port > 65535 {
			v.add(key+".port", "%d is not a TCP port", h.Port)
		}
		if h.Socket != "" && h.Port != 0 {
			v.add(key+".socket", "set socket or port, not both")
		}
		for _, a := range h.Agents {
			if name, _, _ := strings.Cut(a, "="); strings.TrimSpace(name) == "" {
				v.add(key+".agents", "%q: each agent is NAME or NAME=COMMAND", a)
			}
		}
	}
	n := 0
	for _, s := range []string{h.TokenEnv, h.TokenCmd, h.Token} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		v.add(key, "set one of token_env, token_cmd and token")
	}
	if h.TokenParam != "" && !paramName.MatchString(h.TokenParam) {
		v.add(key+".token_param", "%q is not a URL query parameter name (letters, digits, _ . -)", h.TokenParam)
	}
	if h.TokenEnv != "" && !envName.MatchString(h.TokenEnv) {
		v.add(key+".token_env", "%q is not an environment variable name", h.TokenEnv)
	}
	if h.Token != "" && !h.AllowPlaintextToken {
		v.add(key+".token", "tokens are not stored in clear: use token_env or token_cmd "+
			"(or set allow_plaintext_token to true for this host)") // no "= value": the log masking would hide it
	}
}

// validate checks one agent.
func (a Agent) validate(v *validator, name string) {
	key := "agents." + name
	if !hostName.MatchString(name) {
		key = "agents." + strconv.Quote(name)
		v.add(key, "agent names use letters, digits, '.', '_' and '-'")
	}
	if strings.TrimSpace(a.Command) == "" {
		v.add(key, "an agent needs command (the program to run)")
	} else if strings.ContainsRune(a.Command, 0) {
		v.add(key+".command", "the command holds a NUL byte")
	}
	for _, arg := range a.Args {
		if strings.ContainsRune(arg, 0) {
			v.add(key+".args", "an argument holds a NUL byte")
		}
	}
	for k := range a.Env {
		if !envName.MatchString(k) {
			v.add(key+".env", "%q is not an environment variable name", k)
		}
	}
}

// CheckURL accepts ws://, wss:// and ws+unix:// URLs. Its error never
// repeats the URL (it may hold a token).
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a valid URL")
	}
	switch u.Scheme {
	case "ws", "wss":
		if u.Host == "" {
			return fmt.Errorf("the URL has no host")
		}
	case "ws+unix":
		if u.Path == "" && u.Opaque == "" {
			return fmt.Errorf("a ws+unix URL needs a socket path (ws+unix:///path/to/socket)")
		}
	default:
		return fmt.Errorf("URLs must start with ws://, wss:// or ws+unix://")
	}
	return nil
}

// SplitSSH splits [user@]host[:port] (host may be a bracketed IPv6
// address). port is "" when not given.
func SplitSSH(dest string) (user, host, port string, err error) {
	if dest == "" || strings.ContainsAny(dest, " \t\n'\"`;|&$") || strings.HasPrefix(dest, "-") {
		return "", "", "", fmt.Errorf("%q is not [user@]host[:port]", dest)
	}
	rest := dest
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		user, rest = rest[:i], rest[i+1:]
		if user == "" {
			return "", "", "", fmt.Errorf("%q has an empty user", dest)
		}
	}
	host = rest
	if h, p, serr := net.SplitHostPort(rest); serr == nil {
		host, port = h, p
		if n, perr := strconv.Atoi(p); perr != nil || n < 1 || n > 65535 {
			return "", "", "", fmt.Errorf("%q has a bad port", dest)
		}
	} else if strings.Count(rest, ":") == 1 {
		return "", "", "", fmt.Errorf("%q has a bad port", dest)
	}
	if host == "" || strings.HasPrefix(host, "-") {
		return "", "", "", fmt.Errorf("%q has no host", dest)
	}
	return user, host, port, nil
}

// KeyList turns a key override value (a string or an array of strings)
// into keys.
func KeyList(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, fmt.Errorf("empty key")
		}
		return []string{x}, nil
	case []any:
		if len(x) == 0 {
			return nil, fmt.Errorf("empty key list")
		}
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok || strings.TrimSpace(s) == "" {
				return nil, fmt.Errorf("keys are non-empty strings")
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a key override is a string or an array of strings")
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
