package render

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/bytesize"
	"github.com/charmbracelet/x/ansi"
)

// maxEmbeddedDecode is how many bytes of an embedded resource are decoded
// for display; the text shown is further capped at maxHeadLines rows.
const maxEmbeddedDecode = 64 << 10

// embedded renders an embedded resource (tool result content of type
// embeddedResource: base64 data and a content type). Text — a text/* type,
// or bytes that are valid UTF-8 and look like text under any type that is
// not an image, audio, video or font — is decoded, sanitised and shown like
// other output under a header with the resource's name (see resourceName),
// type and size. Anything else is described as "binary, size, type".
func (r *Renderer) embedded(c ahpwire.ToolResultContent, name string, width int) []string {
	label := "Resource"
	if name != "" {
		label += ": " + name
	}
	mime := oneLine(c.ContentType)
	data, total, ok := decodeEmbedded(c.Data, maxEmbeddedDecode)
	if !ok {
		return textBlock(label+" (invalid base64"+metaSuffix(mime)+")", width, r.styles.Muted, detailIndent)
	}
	if !isTextResource(mime, data) {
		return textBlock(label+" (binary, "+bytesize.Format(total)+metaSuffix(mime)+")", width, r.styles.Muted, detailIndent)
	}
	out := r.section(label+" ("+refMeta(mime, total)+")", width)
	if len(data) == 0 {
		return append(out, detailIndent+"  "+r.styles.Muted.Render("(empty)"))
	}
	text := SanitizeTabs(strings.TrimRight(string(data), "\n "), TabWidth)
	shown, moreLines := fitRows(text, max(width-len(detailIndent)-2, 1), maxHeadLines)
	out = append(out, r.codeLines(shown, width, TabWidth)...)
	switch {
	case int64(len(data)) < total:
		// Cut at the decode limit (and maybe before it): say how much is left.
		rest := total - int64(len(shown))
		out = append(out, detailIndent+"  "+r.styles.Muted.Render(truncatePlain("… "+bytesize.Format(rest)+" more not shown", width-len(detailIndent)-2)))
	case moreLines > 0:
		out = append(out, r.omitted(moreLines, "more", width))
	}
	return out
}

// fitRows returns the longest prefix of whole lines of the sanitised text
// that hard-wraps into at most maxRows rows of width columns, and how many
// lines are left out. A single line longer than maxRows rows is cut.
func fitRows(text string, width, maxRows int) (string, int) {
	rows, pos := 0, 0
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		n := max((ansi.StringWidth(text[pos:end])+width-1)/width, 1)
		if rows+n > maxRows {
			if rows == 0 { // one huge line: keep what fits
				return ansi.Truncate(text[pos:end], maxRows*width, ""), strings.Count(text[end:], "\n")
			}
			return strings.TrimSuffix(text[:pos], "\n"), strings.Count(text[pos:], "\n") + 1
		}
		rows += n
		pos = end + 1
	}
	return text, 0
}

// metaSuffix is ", type" or "" when the type is unknown.
func metaSuffix(mime string) string {
	if mime == "" {
		return ""
	}
	return ", " + mime
}

// decodeEmbedded decodes at most limit bytes of the base64 payload s
// (standard alphabet, padded or not; whitespace ignored) and returns them,
// the payload's full decoded size, and whether the decoded part was valid.
// A cut never splits a UTF-8 sequence at its end.
func decodeEmbedded(s string, limit int) ([]byte, int64, bool) {
	if strings.ContainsAny(s, " \t\r\n") {
		s = strings.Join(strings.Fields(s), "")
	}
	body := strings.TrimRight(s, "=")
	total := int64(len(body)) / 4 * 3
	switch len(body) % 4 {
	case 1:
		return nil, 0, false
	case 2:
		total++
	case 3:
		total += 2
	}
	take := body
	if cut := limit / 3 * 4; len(take) > cut {
		take = take[:cut]
	}
	data, err := base64.RawStdEncoding.DecodeString(take)
	if err != nil {
		return nil, 0, false
	}
	if int64(len(data)) < total {
		data = trimPartialRune(data)
	}
	return data, total, true
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return b // ASCII: nothing partial
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// isTextResource decides whether an embedded resource is shown as text: a
// text/* type always is (bad bytes become U+FFFD); media types never are;
// anything else is text when it is valid UTF-8 without NUL bytes and with
// few other control characters.
func isTextResource(mime string, data []byte) bool {
	m := strings.ToLower(strings.TrimSpace(mime))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	switch {
	case strings.HasPrefix(m, "text/"):
		return true
	case strings.HasPrefix(m, "image/"), strings.HasPrefix(m, "audio/"), strings.HasPrefix(m, "video/"), strings.HasPrefix(m, "font/"):
		return false
	}
	if !utf8.Valid(data) {
		return false
	}
	controls := 0
	for _, c := range data {
		switch {
		case c == 0:
			return false
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b:
			controls++
		}
	}
	return controls*20 <= len(data) // at most 5%
}

// nameKeys are the tool-input members that name the file a tool read, in
// order of preference.
var nameKeys = []string{"path", "file_path", "filePath", "file", "filename", "fileName", "uri", "url", "name"}

// resourceName returns the name to show over a tool's embedded resource:
// AHP's embeddedResource carries only data and a content type, so the
// name comes from the tool's input (its "path", "file", "uri" … member)
// when the call returned exactly one embedded resource; "" otherwise.
func resourceName(tc *ahpwire.ToolCallState, v ViewOpts) string {
	n := 0
	for _, c := range tc.Content {
		if c.Type == ahpwire.ContentEmbeddedResource {
			n++
		}
	}
	if n != 1 || tc.ToolInput == nil {
		return ""
	}
	in := tc.ToolInput.Text
	if tc.ToolInput.Ref != nil {
		s, ok := v.resource(tc.ToolInput.Ref.URI)
		if !ok {
			return ""
		}
		in = s
	}
	in = strings.TrimSpace(in)
	if !strings.HasPrefix(in, "{") || len(in) > 1<<20 {
		return ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(in), &obj) != nil {
		return ""
	}
	for _, k := range nameKeys {
		var s string
		if raw, ok := obj[k]; ok && json.Unmarshal(raw, &s) == nil {
			if s = oneLine(s); s != "" {
				return s
			}
		}
	}
	return ""
}
