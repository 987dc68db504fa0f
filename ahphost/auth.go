package ahphost

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// tokenChecker compares presented connection tokens in constant time.
type tokenChecker struct {
	disabled bool
	digest   [sha256.Size]byte
}

func newTokenChecker(token string, disabled bool) tokenChecker {
	return tokenChecker{disabled: disabled, digest: sha256.Sum256([]byte(token))}
}

// allowed reports whether r carries the token as the `tkn` query parameter
// or as `Authorization: Bearer <token>`. Both candidates are hashed so the
// comparison time does not depend on the token's length or content.
func (t tokenChecker) allowed(r *http.Request) bool {
	if t.disabled {
		return true
	}
	ok := 0
	if q, present := r.URL.Query()["tkn"]; present && len(q) > 0 {
		d := sha256.Sum256([]byte(q[0]))
		ok |= subtle.ConstantTimeCompare(d[:], t.digest[:])
	}
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, cred, found := strings.Cut(h, " ")
		if found && strings.EqualFold(scheme, "Bearer") {
			d := sha256.Sum256([]byte(strings.TrimSpace(cred)))
			ok |= subtle.ConstantTimeCompare(d[:], t.digest[:])
		}
	}
	return ok == 1
}

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
