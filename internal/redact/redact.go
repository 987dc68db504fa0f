package redact

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Placeholder replaces every secret that redact finds.
const Placeholder = "***"

// minSecret is the shortest literal secret replaced verbatim; shorter
// strings would mask ordinary words (the patterns still catch them).
const minSecret = 4

// patterns match a prefix (group 1, kept) followed by a secret (replaced).
var patterns = []*regexp.Regexp{
	// tkn=/token= query parameters, plain, percent- or double-encoded.
	regexp.MustCompile(`(?i)((?:^|[^a-z0-9_%]|%3F|%26|%253F|%2526)(?:tkn|token)(?:=|%3D|%253D))(?:[^&#%\s"'<>;,)\]}]|%(?:[013-9a-fA-F][0-9a-fA-F]|2[0-24-57-9a-fA-F]))+`),
	// Other secret-looking query parameters: api_key=, secret=, password=…
	regexp.MustCompile(`(?i)((?:[?&]|%3F|%26)[a-z0-9_.\-]*(?:key|secret|pass)[a-z0-9_.\-]*(?:=|%3D))(?:[^&#%\s"'<>;,)\]}]|%(?:[013-9a-fA-F][0-9a-fA-F]|2[0-24-57-9a-fA-F]))+`),
	// Authorization: Bearer X / Basic X / X (also http.Header's map form).
	regexp.MustCompile(`(?i)(authorization"?\s*[:=]\s*\[?"?(?:(?:bearer|basic|token)\s+)?)[^\s"'\],;]+`),
	// "Bearer X" wherever it appears.
	regexp.MustCompile(`(?i)((?:^|[^a-z0-9_])bearer\s+)[^\s"'\],;]+`),
	// --token X / --token=X / -token X.
	regexp.MustCompile(`(?i)((?:^|[\s"'])--?token(?:=|\s+))[^\s"']+`),
	// AHPTUI_TOKEN=X, token: X, "token":"X", connectionToken=X.
	regexp.MustCompile(`(?i)((?:^|[^a-z0-9])[a-z_]*token"?\s*[:=]\s*"?)[^\s"'&#,;}\]]+`),
	// Bare API keys: sk-ant-… (Anthropic), sk-… and sk-proj-… (OpenAI),
	// 20 or more key characters after the prefix (the prefix is kept).
	regexp.MustCompile(`((?:^|[^A-Za-z0-9_\-])sk-(?:ant-)?)[A-Za-z0-9_\-]{20,}`),
	// URL userinfo password: scheme://user:SECRET@host.
	regexp.MustCompile(`(?i)([a-z][a-z0-9+.\-]*://[^/\s:@"'<>]*:)[^@/\s"'<>]+@`),
}

// String returns s with every recognisable credential replaced by
// Placeholder (see the package documentation for the placements).
func String(s string) string {
	if s == "" {
		return s
	}
	for i, re := range patterns {
		repl := "${1}" + Placeholder
		if i == len(patterns)-1 {
			repl += "@"
		}
		if re.MatchString(s) {
			s = re.ReplaceAllString(s, repl)
		}
	}
	return s
}

// Masker hides known secrets (the configured token, a URL password) in
// addition to the patterns of String. The zero value masks patterns only.
type Masker struct {
	secrets []string
}

// New returns a Masker for the given secrets; empty and very short ones
// are ignored, and each secret's percent-encoded forms are added.
func New(secrets ...string) Masker {
	var m Masker
	for _, s := range secrets {
		m = m.With(s)
	}
	return m
}

// With returns a copy of m that also masks secret.
func (m Masker) With(secret string) Masker {
	if len(secret) < minSecret || strings.Contains(secret, Placeholder) {
		return m
	}
	out := Masker{secrets: append([]string(nil), m.secrets...)}
	for _, v := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
		if !contains(out.secrets, v) {
			out.secrets = append(out.secrets, v)
		}
	}
	// Longest first, so a secret that contains another is masked whole.
	for i := 1; i < len(out.secrets); i++ {
		for j := i; j > 0 && len(out.secrets[j]) > len(out.secrets[j-1]); j-- {
			out.secrets[j], out.secrets[j-1] = out.secrets[j-1], out.secrets[j]
		}
	}
	return out
}

// WithURL returns a copy of m that also masks the credentials carried by
// the URL raw: its userinfo password and its tkn query parameter.
func (m Masker) WithURL(raw string) Masker {
	u, err := url.Parse(raw)
	if err != nil {
		return m
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			m = m.With(p)
		}
	}
	if t := u.Query().Get("tkn"); t != "" {
		m = m.With(t)
	}
	return m
}

// String returns s with the known secrets and every recognisable
// credential masked.
func (m Masker) String(s string) string {
	for _, sec := range m.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Placeholder)
		}
	}
	return String(s)
}

// Error returns err with its text masked. The result still unwraps to err,
// so errors.Is and errors.As see the original chain; nil stays nil, and an
// error whose text needs no masking is returned unchanged.
func (m Masker) Error(err error) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	if ms := m.String(s); ms != s {
		return &maskedError{msg: ms, err: err}
	}
	return err
}

// maskedError carries a masked message over the original error.
type maskedError struct {
	msg string
	err error
}

// Error returns the masked message.
func (e *maskedError) Error() string { return e.msg }

// Unwrap returns the original error.
func (e *maskedError) Unwrap() error { return e.err }

// IsMasked reports whether err's text was masked by a Masker.
func IsMasked(err error) bool {
	var me *maskedError
	return errors.As(err, &me)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
