package ahpclient

import (
	"context"
	"errors"
	"slices"

	"github.com/ahptui/ahptui/ahpwire"
)

// HostFeatures are the composer features the host announced in its
// initialize result.
type HostFeatures struct {
	// CompletionTriggerCharacters are the characters after which the
	// composer should ask for `completions` (e.g. "@", "/").
	CompletionTriggerCharacters []string
	// TerminalCommandPrefix starts a message the host runs as a terminal
	// command (e.g. "!"); "" when the host has none.
	TerminalCommandPrefix string
	// DefaultDirectory is the host's default working directory (a URI).
	DefaultDirectory string
}

// featuresOf extracts the composer features of an initialize result.
func featuresOf(r ahpwire.InitializeResult) HostFeatures {
	return HostFeatures{
		CompletionTriggerCharacters: slices.Clone(r.CompletionTriggerCharacters),
		TerminalCommandPrefix:       r.TerminalCommandPrefix,
		DefaultDirectory:            r.DefaultDirectory,
	}
}

// HostFeatures returns the features of the last successful initialize
// (the zero value before the first one).
func (c *Client) HostFeatures() HostFeatures {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.features
	f.CompletionTriggerCharacters = slices.Clone(f.CompletionTriggerCharacters)
	return f
}

// Completions asks for completion items of a user message being composed in
// chat; offset is the cursor in text in UTF-16 code units.
func (c *Client) Completions(ctx context.Context, chat, text string, offset int) ([]ahpwire.CompletionItem, error) {
	if chat == "" {
		return nil, errors.New("ahpclient: completions: empty chat")
	}
	p := ahpwire.CompletionsParams{Channel: chat, Kind: ahpwire.CompletionKindUserMessage, Text: text, Offset: offset}
	var res ahpwire.CompletionsResult
	if err := c.request(ctx, ahpwire.MethodCompletions, p, &res, nil); err != nil {
		return nil, err
	}
	return res.Items, nil
}

// ResolveSessionConfig asks the host for the session configuration schema
// given the draft in p (Channel is set to the root channel).
func (c *Client) ResolveSessionConfig(ctx context.Context, p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	p.Channel = ahpwire.RootURI
	var res ahpwire.ResolveSessionConfigResult
	err := c.request(ctx, ahpwire.MethodResolveSessionConfig, p, &res, nil)
	return res, err
}

// SessionConfigCompletions asks for values of one configuration property.
func (c *Client) SessionConfigCompletions(ctx context.Context, p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	p.Channel = ahpwire.RootURI
	var res ahpwire.SessionConfigCompletionsResult
	if err := c.request(ctx, ahpwire.MethodSessionConfigCompletions, p, &res, nil); err != nil {
		return nil, err
	}
	return res.Items, nil
}

// Authenticate pushes a bearer token for a protected resource (an empty
// token signs out). The token is sent once and never logged or kept.
func (c *Client) Authenticate(ctx context.Context, resource, token string) error {
	if resource == "" {
		return errors.New("ahpclient: authenticate: empty resource")
	}
	p := ahpwire.AuthenticateParams{Channel: ahpwire.RootURI, Resource: resource, Token: token}
	return c.request(ctx, ahpwire.MethodAuthenticate, p, nil, nil)
}
