package ahpclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// piStyleHost serves a scripted AHP host that, like pi-ahp, reads its
// token from ?token= only (no tkn, no Authorization header) and answers
// 401 otherwise.
func piStyleHost(t *testing.T, token string) string {
	h := newScriptedHost(t, nil)
	inner := h.srv.Config.Handler
	h.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("token") != token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	})
	return h.url()
}

// TestAuthErrorNamesTokenFormsTried: a host that reads ?token= refuses
// ahptui's ?tkn= + bearer; the error says which forms were tried (never
// the token) and points at token_param.
func TestAuthErrorNamesTokenFormsTried(t *testing.T) {
	const tok = "pi-secret-token-123"
	o := testOptions(t, piStyleHost(t, tok))
	o.Token = tok
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Start(context.Background())
	var ae *AuthError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusUnauthorized {
		t.Fatalf("Start = %v, want *AuthError 401", err)
	}
	msg := err.Error()
	for _, want := range []string{`query parameter "tkn"`, "Authorization header (Bearer)", "token_param"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not mention %s", msg, want)
		}
	}
	if strings.Contains(msg, tok) {
		t.Fatalf("token leaked: %q", msg)
	}
}

// TestTokenParamReachesPiStyleHost: with TokenParam "token" the same host
// accepts the connection, and a URL carrying ?token= is read as the token.
func TestTokenParamReachesPiStyleHost(t *testing.T) {
	const tok = "pi-secret-token-123"
	url := piStyleHost(t, tok)
	for name, o := range map[string]Options{
		"option": {URL: url, Token: tok, TokenParam: "token"},
		"in URL": {URL: url + "/?token=" + tok, TokenParam: "token"},
	} {
		t.Run(name, func(t *testing.T) {
			base := testOptions(t, o.URL)
			base.Token, base.TokenParam = o.Token, o.TokenParam
			c, err := New(base)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(context.Background()); err != nil {
				t.Fatalf("Start = %v", err)
			}
			if strings.Contains(c.URL(), tok) {
				t.Errorf("URL() shows the token: %s", c.URL())
			}
		})
	}
}
