package render

import (
	"net/url"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// linkTarget returns the URI of an OSC 8 sequence's body ("8;params;URI"
// and its terminator); "" closes a hyperlink.
func linkTarget(body string) string {
	body = strings.TrimSuffix(strings.TrimSuffix(body, "\x07"), "\x1b\\")
	body = strings.TrimPrefix(body, "8;")
	if i := strings.IndexByte(body, ';'); i >= 0 {
		return body[i+1:]
	}
	return ""
}

// safeLinkScheme reports whether target may become a hyperlink: only http,
// https and mailto. Others (javascript:, file:, vscode:, smb: — whose click
// can leak Windows credentials —, data: …) are shown as plain text.
func safeLinkScheme(target string) bool {
	u, err := url.Parse(target)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return true
	}
	return false
}

// looksLikeURL reports whether a link's visible label reads as an address.
func looksLikeURL(label string) bool {
	l := strings.ToLower(strings.TrimSpace(label))
	return strings.Contains(l, "://") || strings.HasPrefix(l, "www.") || strings.HasPrefix(l, "mailto:")
}

// sameTarget reports whether a label names target itself (ignoring case,
// a trailing slash and a mailto: prefix).
func sameTarget(label, target string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		s = strings.TrimPrefix(s, "mailto:")
		return strings.TrimSuffix(s, "/")
	}
	return norm(label) == norm(target)
}

// keepLink decides whether the OSC 8 hyperlink opened at l[i:j] (target)
// is kept: its scheme must be safe, and a label that looks like an address
// must be that address — a label naming one URL never links to another
// (the real target stays visible: the markdown renderer prints it after
// the label, as plain text then).
func keepLink(l string, j int, target string) bool {
	if !safeLinkScheme(target) {
		return false
	}
	rest := l[j:]
	if k := strings.Index(rest, "\x1b]8;"); k >= 0 {
		rest = rest[:k]
	}
	label := ansi.Strip(rest)
	return !looksLikeURL(label) || sameTarget(label, target)
}
