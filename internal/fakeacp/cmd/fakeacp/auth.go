package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// The fake agent's sign-in script (FAKEACP_AUTH):
//
//	fake-login  an agent method: authenticate {fake-login} signs in
//	fake-key    an env_var method: FAKEACP_API_KEY set when the agent
//	            starts signs in (and authenticate {fake-key} succeeds);
//	            the agent writes the key to stderr on start, on purpose,
//	            so tests can check the host masks it
//
// The prompt `whoami` says which method signed in.

// keyVar is the fake's API key variable.
const keyVar = "FAKEACP_API_KEY"

// initAuth signs in from the environment (an env_var sign-in).
func (f *fake) initAuth() {
	if k := os.Getenv(keyVar); k != "" && os.Getenv("FAKEACP_AUTH") != "" {
		if strings.HasPrefix(k, "crash") { // a key the agent cannot start with
			fmt.Fprintln(os.Stderr, "fakeacp: unusable key")
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "fakeacp: using key %s\n", k)
		f.authed = "fake-key"
	}
}

// authMethods lists the methods of FAKEACP_AUTH=1 or prompt.
func (f *fake) authMethods() []sdk.AuthMethod {
	switch os.Getenv("FAKEACP_AUTH") {
	case "1", "prompt":
	default:
		return []sdk.AuthMethod{}
	}
	d := "Log in with the fake browser flow"
	kd := "Use a Fake API key"
	link := "https://fake.invalid/keys"
	return []sdk.AuthMethod{
		{Agent: &sdk.AuthMethodAgent{Id: "fake-login", Name: "Fake login", Description: &d}},
		{EnvVar: &sdk.AuthMethodEnvVarInline{Id: "fake-key", Name: "Fake API key", Description: &kd, Link: &link,
			Type: "env_var", Vars: []sdk.AuthEnvVar{{Name: keyVar, Secret: true}}}},
	}
}

// needAuth refuses a request with -32000 when FAKEACP_AUTH is one of
// modes and nobody signed in.
func (f *fake) needAuth(modes ...string) error {
	mode := os.Getenv("FAKEACP_AUTH")
	on := false
	for _, m := range modes {
		on = on || m == mode
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case !on || f.authed != "":
		return nil
	case mode == "none":
		return &sdk.RequestError{Code: -32000, Message: "no credentials found: set FAKE_TOKEN or run `fake login` first"}
	}
	return &sdk.RequestError{Code: -32000, Message: "Authentication required: not logged in to Fake"}
}

// Authenticate signs in with one of the advertised methods.
func (f *fake) Authenticate(ctx context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch p.MethodId {
	case "fake-login":
		f.authed = p.MethodId
	case "fake-key":
		if os.Getenv(keyVar) == "" {
			return sdk.AuthenticateResponse{}, &sdk.RequestError{Code: -32000, Message: keyVar + " is not set"}
		}
		f.authed = p.MethodId
	default:
		return sdk.AuthenticateResponse{}, sdk.NewInvalidParams(map[string]any{"error": "unknown auth method " + p.MethodId})
	}
	return sdk.AuthenticateResponse{}, nil
}

// whoami says which method signed in.
func (f *fake) whoami() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.authed == "" {
		return "Not signed in."
	}
	return "Signed in with " + f.authed + "."
}
