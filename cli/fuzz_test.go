package cli

import (
	"strings"
	"testing"
)

// FuzzParseArgs: arbitrary command lines never panic, and an error never
// repeats a URL's ?tkn= token.
func FuzzParseArgs(f *testing.F) {
	f.Add("demo", "--theme", "ws://h:1/?tkn=SECRET")
	f.Add("--token", "x", "wss://host/?tkn=SECRET&a=b")
	f.Add("serve", "--addr", "127.0.0.1:0")
	f.Add("http://h/?tkn=SECRET", "", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		args := []string{a, b, c}
		_, err := parseArgs(args, func(string) string { return "" })
		if err == nil {
			return
		}
		if strings.Contains(err.Error(), "tkn=SECRET") {
			t.Fatalf("error leaks the token: %v", err)
		}
	})
}

// FuzzParseSize: a size that parses is positive (serve's --max-frame).
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"64k", "16m", "900000", "", "-1", "1kib", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := parseSize("--x", s); err == nil && n <= 0 && s != "" {
			t.Fatalf("size %d from %q", n, s)
		}
	})
}
