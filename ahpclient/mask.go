package ahpclient

import (
	"regexp"
	"strings"
)

// maskPlaceholder replaces every secret MaskToken finds.
const maskPlaceholder = "***"

var tokenPatterns = []*regexp.Regexp{
	// ?tkn=VALUE / &tkn=VALUE, also percent-encoded query separators.
	regexp.MustCompile(`(?i)((?:[?&]|%3F|%26)tkn(?:=|%3D))[^&#\s"'<>]+`),
	// Authorization: Bearer VALUE (any case, any spacing).
	regexp.MustCompile(`(?i)(bearer\s+)[^\s"',;]+`),
	// --token VALUE / --token=VALUE / token=VALUE / "token":"VALUE".
	regexp.MustCompile(`(?i)(--?token(?:=|\s+))[^\s"']+`),
	regexp.MustCompile(`(?i)((?:^|[\s?&;,{])"?token"?\s*[:=]\s*"?)[^\s"'&,}]+`),
}

// MaskToken returns s with every connection token it can recognise replaced
// by "***": `tkn=` query parameters (plain or percent-encoded), `Bearer`
// credentials, `--token` flags and `token=`/`"token":` pairs. It is safe to
// apply to URLs, error strings, log lines and status text, and applying it
// twice is harmless.
func MaskToken(s string) string {
	if s == "" {
		return s
	}
	for _, re := range tokenPatterns {
		s = re.ReplaceAllString(s, "${1}"+maskPlaceholder)
	}
	return s
}

// masker removes one known secret (the configured token) in addition to the
// patterns of MaskToken.
type masker struct {
	secret string
}

// mask returns s with the secret and every recognisable token masked.
func (m masker) mask(s string) string {
	if m.secret != "" && len(m.secret) >= 4 {
		s = strings.ReplaceAll(s, m.secret, maskPlaceholder)
	}
	return MaskToken(s)
}
