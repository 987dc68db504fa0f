package render

import (
	"encoding/base64"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/internal/bytesize"
)

// resource returns the text behind a content URI: fetched content from
// v.Resources, or the inline payload of a "data:" URI (RFC 2397), which
// needs no fetch. Binary or malformed data URIs count as not loaded.
func (v ViewOpts) resource(uri string) (string, bool) {
	if s, ok := v.Resources[uri]; ok {
		return s, true
	}
	return decodeDataURI(uri)
}

// isDataURI reports whether uri carries its content inline (RFC 2397), so
// it never needs a fetch.
func isDataURI(uri string) bool { return strings.HasPrefix(uri, "data:") }

// decodeDataURI decodes a "data:[<mediatype>][;base64],<data>" URI into
// UTF-8 text. It reports false for anything else.
func decodeDataURI(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "data:")
	if !ok {
		return "", false
	}
	meta, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return "", false
	}
	var out []byte
	if strings.HasSuffix(strings.ToLower(meta), ";base64") {
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(payload)
			if err != nil {
				return "", false
			}
		}
		out = b
	} else {
		s, err := url.PathUnescape(payload)
		if err != nil {
			return "", false
		}
		out = []byte(s)
	}
	if !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

// maxURIDisplay is the most runes of a URI a line shows.
const maxURIDisplay = 300

// displayURI is how a URI from the server is shown: sanitised on one line,
// a data: URI as its media type and size (never its payload), and anything
// longer than maxURIDisplay runes cut in the middle.
func displayURI(uri string) string {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		meta, payload, _ := strings.Cut(rest, ",")
		mime := meta
		size := int64(len(payload))
		if m, isB64 := strings.CutSuffix(strings.ToLower(meta), ";base64"); isB64 {
			mime = meta[:len(m)]
			size = int64(len(strings.TrimRight(payload, "="))) * 3 / 4
		}
		if i := strings.IndexByte(mime, ';'); i >= 0 {
			mime = mime[:i]
		}
		if mime = oneLine(mime); mime == "" {
			mime = "text/plain"
		}
		return "data: URI (" + mime + ", " + bytesize.Format(size) + ")"
	}
	s := oneLine(uri)
	if utf8.RuneCountInString(s) <= maxURIDisplay {
		return s
	}
	r := []rune(s)
	half := maxURIDisplay / 2
	return string(r[:half]) + "…" + string(r[len(r)-half+1:])
}

// displayFile is displayURI for the file a file edit changes: a local
// file: URI shows as its path, relative to the first of dirs (file: URIs
// of directories) that holds it. Other URIs show as displayURI does.
func displayFile(uri string, dirs []string) string {
	if p, ok := LocalPath(uri); ok {
		for _, d := range dirs {
			if dp, ok := LocalPath(d); ok && dp != "" {
				if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(dp, "/")+"/"); ok && rel != "" {
					p = rel
					break
				}
			}
		}
		uri = p
	}
	return displayURI(uri)
}

// LocalPath is the path of a file: URI naming a local file (no host, or
// localhost), unescaped; false for any other URI.
func LocalPath(uri string) (string, bool) {
	if !strings.HasPrefix(strings.ToLower(uri), "file:") {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	return u.Path, true
}
