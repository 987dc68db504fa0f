package tui

import (
	"net/url"
	"strings"
)

// displayDir shows a working directory the same way whichever form the
// host keeps it in: a local file: URI ("file:///tmp/x") as its path
// ("/tmp/x"); anything else (a plain path, a remote URI) as given.
func displayDir(s string) string {
	if !strings.HasPrefix(strings.ToLower(s), "file:") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return s
	}
	return u.Path
}
