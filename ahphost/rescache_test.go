package ahphost

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestEncodedResultsBounded: the kept answers stay within encodedBytes,
// the oldest going first, and one larger than the bound is not kept.
func TestEncodedResultsBounded(t *testing.T) {
	var c encodedResults
	page := bytes.Repeat([]byte("x"), 64<<10)
	n := 2 * encodedBytes / len(page)
	for i := 0; i < n; i++ {
		c.put(encodedKey{uri: "u" + strconv.Itoa(i)}, page)
		if c.bytes > encodedBytes {
			t.Fatalf("%d bytes kept after %d answers, bound %d", c.bytes, i+1, encodedBytes)
		}
	}
	if _, ok := c.get(encodedKey{uri: "u0"}); ok {
		t.Fatal("the oldest answer is still kept")
	}
	if _, ok := c.get(encodedKey{uri: "u" + strconv.Itoa(n-1)}); !ok {
		t.Fatal("the newest answer is not kept")
	}
	c.put(encodedKey{uri: "big"}, make([]byte, encodedBytes+1))
	if _, ok := c.get(encodedKey{uri: "big"}); ok {
		t.Fatal("an answer over the bound is kept")
	}
}

// TestResourceReadAnswersShared: clients reading one resource get the
// same answer, in each encoding they ask for; a resource stored again
// under its URI is read as its new content, not the kept answer of the
// old one.
func TestResourceReadAnswersShared(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true})
	const uri = "ahp-resource:/shared/page"
	put := func(text string) {
		h.mu.Lock()
		h.st.putResource(uri, "text/markdown", []byte(text))
		h.mu.Unlock()
	}
	read := func(w *wsClient, enc string) ahpwire.ResourceReadResult {
		t.Helper()
		var r ahpwire.ResourceReadResult
		params := map[string]any{"channel": ahpwire.RootURI, "uri": uri}
		if enc != "" {
			params["encoding"] = enc
		}
		must(t, json.Unmarshal(w.call("resourceRead", params), &r))
		return r
	}
	a, b := dial(t, u, nil), dial(t, u, nil)
	a.initialize("a", nil, nil)
	b.initialize("b", nil, nil)
	put("first \"page\"\n")
	for _, w := range []*wsClient{a, b, a} {
		if r := read(w, ""); r.Data != "first \"page\"\n" || r.Encoding != ahpwire.EncodingUTF8 {
			t.Fatalf("read %q (%s), want the first page as utf-8", r.Data, r.Encoding)
		}
	}
	if r := read(b, ahpwire.EncodingBase64); r.Encoding != ahpwire.EncodingBase64 || r.Data != base64.StdEncoding.EncodeToString([]byte("first \"page\"\n")) {
		t.Fatalf("base64 read %q (%s)", r.Data, r.Encoding)
	}
	put("second")
	for _, w := range []*wsClient{a, b} {
		if r := read(w, ""); r.Data != "second" {
			t.Fatalf("after the resource was stored again: read %q, want \"second\"", r.Data)
		}
	}
}
