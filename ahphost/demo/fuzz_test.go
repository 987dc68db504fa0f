package demo

import (
	"errors"
	"path"
	"strings"
	"testing"
)

// FuzzCheckPath: an accepted path is relative, clean and never climbs out;
// a refused one is refused with ErrOutsideDir. Never panics.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"", ".", "a/b", "../x", "/etc", `C:\x`, `\\srv\s`, "a/../../b", "a\x00", "./a//b/", "…/ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := CheckPath(p)
		if err != nil {
			if !errors.Is(err, ErrOutsideDir) {
				t.Fatalf("CheckPath(%q): error %v is not ErrOutsideDir", p, err)
			}
			return
		}
		if got == "" || strings.HasPrefix(got, "/") || got == ".." || strings.HasPrefix(got, "../") ||
			strings.Contains(got, "/../") || strings.ContainsRune(got, 0) || path.Clean(got) != got {
			t.Fatalf("CheckPath(%q) accepted %q", p, got)
		}
		if len(got) >= 2 && got[1] == ':' && got[0]|0x20 >= 'a' && got[0]|0x20 <= 'z' {
			t.Fatalf("CheckPath(%q) accepted drive path %q", p, got)
		}
	})
}

// FuzzParseCommand: any prompt parses to a script with arguments in range,
// and anything refused carries a reason. Never panics.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"hello", "/demo", "/demo big 3m", "/demo big 99999999999999999999k", "/demo slow -1", "/demo big 1e3", "/DEMO   input", "/demo ☃"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := parseCommand(text)
		switch c.script {
		case scriptBig:
			if c.bad == "" && (c.n < minBig || c.n > MaxBig) {
				t.Fatalf("%q: big size %d accepted", text, c.n)
			}
			if c.bad == "" && len(BigReply(c.n)) != c.n && c.n <= 1<<16 {
				t.Fatalf("%q: BigReply(%d) wrong size", text, c.n)
			}
		case scriptSlow:
			if c.n < 1 || c.n > MaxSlowLines {
				t.Fatalf("%q: slow lines %d", text, c.n)
			}
		case scriptUnknown:
			if c.word == "" {
				t.Fatalf("%q: unknown without word", text)
			}
		}
		if c.script != scriptPlain && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(text)), Prefix) {
			t.Fatalf("%q parsed as script %d", text, c.script)
		}
	})
}
