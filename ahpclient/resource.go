package ahpclient

import (
	"context"
	"encoding/base64"
	"fmt"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// Resource is the content behind a ContentRef URI, as read by ResourceRead.
type Resource struct {
	// Data is the decoded content.
	Data []byte
	// ContentType is the MIME type the host reported ("" when unknown).
	ContentType string
}

// ResourceRead fetches the content at uri with `resourceRead` and decodes
// it (utf-8 or base64, whichever the host chose). encoding is the
// preferred encoding ("" lets the host choose).
func (c *Client) ResourceRead(ctx context.Context, uri, encoding string) (Resource, error) {
	if uri == "" {
		return Resource{}, fmt.Errorf("ahpclient: resourceRead: empty uri")
	}
	var res ahpwire.ResourceReadResult
	p := ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: uri, Encoding: encoding}
	if err := c.request(ctx, ahpwire.MethodResourceRead, p, &res, nil); err != nil {
		return Resource{}, fmt.Errorf("ahpclient: resourceRead %s: %w", clipURI(uri), err)
	}
	switch res.Encoding {
	case ahpwire.EncodingUTF8:
		return Resource{Data: []byte(res.Data), ContentType: res.ContentType}, nil
	case ahpwire.EncodingBase64:
		b, err := base64.StdEncoding.DecodeString(res.Data)
		if err != nil {
			return Resource{}, &ProtocolError{Detail: "resourceRead: bad base64 data", Err: err}
		}
		return Resource{Data: b, ContentType: res.ContentType}, nil
	}
	return Resource{}, &ProtocolError{Detail: fmt.Sprintf("resourceRead: unknown encoding %q", clipURI(res.Encoding))}
}

// clipURI shortens a URI for an error message.
func clipURI(s string) string {
	if len(s) <= 120 {
		return s
	}
	cut := 120
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // never split a character: the message stays valid UTF-8
	}
	return s[:cut] + "…"
}
