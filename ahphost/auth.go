package ahphost

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// tokenChecker compares presented connection tokens in constant time: the
// connection token (full access) and the optional watch token (read-only
// connections, Options.WatchToken).
type tokenChecker struct {
	disabled bool
	digest   [sha256.Size]byte
	watch    *[sha256.Size]byte // nil: no watch token
}

func newTokenChecker(token, watchToken string, disabled bool) tokenChecker {
	t := tokenChecker{disabled: disabled, digest: sha256.Sum256([]byte(token))}
	if watchToken != "" {
		d := sha256.Sum256([]byte(watchToken))
		t.watch = &d
	}
	return t
}

// allowed reports whether r carries a token as the `tkn` query parameter
// or as `Authorization: Bearer <token>`, and whether it is the watch token
// (readOnly). The candidates are hashed so the comparison time does not
// depend on the token's length or content.
func (t tokenChecker) allowed(r *http.Request) (ok, readOnly bool) {
	var cands [][sha256.Size]byte
	if q, present := r.URL.Query()["tkn"]; present && len(q) > 0 {
		cands = append(cands, sha256.Sum256([]byte(q[0])))
	}
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, cred, found := strings.Cut(h, " ")
		if found && strings.EqualFold(scheme, "Bearer") {
			cands = append(cands, sha256.Sum256([]byte(strings.TrimSpace(cred))))
		}
	}
	full, watch := 0, 0
	for _, d := range cands {
		full |= subtle.ConstantTimeCompare(d[:], t.digest[:])
		if t.watch != nil {
			watch |= subtle.ConstantTimeCompare(d[:], t.watch[:])
		}
	}
	switch {
	case t.disabled || full == 1:
		return true, false
	case watch == 1:
		return true, true
	}
	return false, false
}

// Who may do what. A connection made with the connection token may do
// everything a client can. One made with the watch token (serve
// --watch-token) may watch: initialize, reconnect, ping, subscribe and
// unsubscribe, list sessions, fetch turns, read resources, watch
// resources and ask for completions and session-config choices; it may
// not create or dispose sessions or chats, sign in, or dispatch any
// action (a turn, a cancel, an approval, terminal input or a claim, a
// truncation, a review: every dispatched action is rejected with a
// rejectionReason, so the client is answered).

// watchMethods are the requests a read-only connection may make.
var watchMethods = map[string]bool{
	ahpwire.MethodPing: true, ahpwire.MethodInitialize: true, ahpwire.MethodReconnect: true,
	ahpwire.MethodSubscribe: true, ahpwire.MethodListSessions: true, ahpwire.MethodFetchTurns: true,
	ahpwire.MethodResourceRead: true, ahpwire.MethodCreateResourceWatch: true,
	ahpwire.MethodCompletions: true, ahpwire.MethodResolveSessionConfig: true, ahpwire.MethodSessionConfigCompletions: true,
}

// errWatchOnly refuses a request of a read-only connection.
func errWatchOnly(method string) *rpcError {
	return &rpcError{code: ahpwire.CodePermissionDenied, msg: truncate(method, 64) + ": this connection's token may only watch (the watch token); use the connection token"}
}

// watchOnlyReason rejects every action a read-only connection dispatches.
const watchOnlyReason = "this connection's token may only watch (the watch token): actions need the connection token"

// hostChecker guards against DNS rebinding when the host runs without a
// connection token: a browser page on an attacker's domain that resolves to
// 127.0.0.1 sends its own name in the Host header, so only names that can
// mean this machine are accepted: IP literals (a rebinding attack needs a
// DNS name), "localhost" and its subdomains, the host name the server is
// bound to, and Options.AllowedHosts (--allow-host). With a token, the
// token is the defence and any Host is accepted.
type hostChecker struct {
	disabled bool
	allowed  map[string]bool
}

func newHostChecker(noToken bool, allowed []string) hostChecker {
	hc := hostChecker{disabled: !noToken, allowed: make(map[string]bool)}
	for _, a := range allowed {
		hc.allow(a)
	}
	return hc
}

// allow adds a host name (a port, if present, is ignored).
func (hc hostChecker) allow(name string) {
	if n := normalizeHost(name); n != "" {
		hc.allowed[n] = true
	}
}

// normalizeHost lower-cases a Host value and strips its port, brackets and
// a trailing dot.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// ok reports whether the request's Host header is acceptable.
func (hc hostChecker) ok(r *http.Request) bool {
	if hc.disabled {
		return true
	}
	h := normalizeHost(r.Host)
	switch {
	case h == "":
		return false
	case h == "localhost" || strings.HasSuffix(h, ".localhost"):
		return true
	case hc.allowed[h]:
		return true
	}
	_, err := netip.ParseAddr(h)
	return err == nil
}
