package ahpwire

// MethodResourceRead reads the content behind a ContentRef URI.
const MethodResourceRead = "resourceRead"

// Content encodings of resourceRead (ContentEncoding).
const (
	EncodingBase64 = "base64"
	EncodingUTF8   = "utf-8"
)

// ResourceReadParams is the params of `resourceRead`; Channel is always
// RootURI.
type ResourceReadParams struct {
	Channel  string `json:"channel"`
	URI      string `json:"uri"`
	Encoding string `json:"encoding,omitempty"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// ResourceReadResult is the result of `resourceRead`.
type ResourceReadResult struct {
	Data        string `json:"data"`
	Encoding    string `json:"encoding"`
	ContentType string `json:"contentType,omitempty"`
}
