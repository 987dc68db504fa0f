package render

import "testing"

func TestDecodeDataURI(t *testing.T) {
	cases := []struct {
		uri  string
		want string
		ok   bool
	}{
		{"data:text/plain;base64,aGVsbG8K", "hello\n", true},
		{"data:text/plain;charset=utf-8;base64,aGVsbG8", "hello", true},
		{"data:,a%20b%0Ac", "a b\nc", true},
		{"data:text/plain;base64,!!!", "", false},
		{"data:no-comma", "", false},
		{"file:///etc/passwd", "", false},
		{"data:;base64,/w==", "", false}, // not UTF-8
	}
	for _, c := range cases {
		got, ok := decodeDataURI(c.uri)
		if got != c.want || ok != c.ok {
			t.Errorf("decodeDataURI(%q) = %q, %v; want %q, %v", c.uri, got, ok, c.want, c.ok)
		}
	}
	v := ViewOpts{Resources: map[string]string{"ahp-x:/a": "fetched"}}
	if s, ok := v.resource("ahp-x:/a"); !ok || s != "fetched" {
		t.Errorf("fetched resource lost: %q %v", s, ok)
	}
	if _, ok := v.resource("ahp-x:/b"); ok {
		t.Error("unknown non-data URI reported as loaded")
	}
}
