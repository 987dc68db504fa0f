package ahphost

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
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
