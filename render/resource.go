package render

import (
	"encoding/base64"
	"net/url"
	"strings"
	"unicode/utf8"
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
