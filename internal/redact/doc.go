// Package redact is the one place that knows where a connection token can
// appear in text and how to hide it. Every program output that may carry a
// credential (log lines, error strings, status text, URLs shown to the
// user) goes through String, a Masker, or a Handler wrapped around the
// slog handler that writes the log.
//
// Recognised placements, each replaced by Placeholder:
//
//   - the value of a tkn= (or token=) query parameter, plain or
//     percent-encoded (%3Ftkn%3D…), anywhere in a string, and of query
//     parameters named like a key, secret or password (api_key=…);
//   - the password of URL userinfo (ws://user:SECRET@host/);
//   - Authorization header values (Bearer, Basic or bare) and "Bearer X";
//   - command-line flags --token X, --token=X, -token X;
//   - environment assignments such as AHPTUI_TOKEN=X and key/value pairs
//     token=X, "token":"X";
//   - bare API keys: sk-ant-…, sk-proj-…, sk-… (20 or more key characters);
//   - any literal secret given to New (and its percent-encoded form).
//
// Masking is idempotent: masking masked text changes nothing.
package redact
