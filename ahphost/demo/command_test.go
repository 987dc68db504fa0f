package demo

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := map[string]struct {
		in   string
		want command
	}{
		"plain":          {"fix the login bug", command{script: scriptPlain}},
		"plain prefixed": {"/demonstrate", command{script: scriptPlain}},
		"empty":          {"   ", command{script: scriptPlain}},
		"bare":           {"/demo", command{script: scriptHelp}},
		"help":           {"/demo help", command{script: scriptHelp}},
		"case":           {"  /DEMO  Tools ", command{script: scriptTools}},
		"error":          {"/demo error", command{script: scriptError}},
		"input":          {"/demo input", command{script: scriptInput}},
		"big":            {"/demo big 3m", command{script: scriptBig, n: 3 << 20}},
		"big bytes":      {"/demo big 1000", command{script: scriptBig, n: 1000}},
		"slow":           {"/demo slow", command{script: scriptSlow, n: DefaultSlowLines}},
		"slow n":         {"/demo slow 7", command{script: scriptSlow, n: 7}},
		"unknown":        {"/demo dance now", command{script: scriptUnknown, word: "dance"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := parseCommand(tc.in); got != tc.want {
				t.Fatalf("parseCommand(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseCommandBadArgs(t *testing.T) {
	for _, in := range []string{"/demo big", "/demo big lots", "/demo big -5", "/demo big 33m", "/demo big 3", "/demo big 99999999999999999999", "/demo slow 0", "/demo slow x"} {
		c := parseCommand(in)
		if c.bad == "" {
			t.Errorf("parseCommand(%q) = %+v, want a refusal", in, c)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := map[string]int{"0": 0, "17": 17, "64k": 64 << 10, "64KiB": 64 << 10, "3m": 3 << 20, "3MB": 3 << 20, "32mib": 32 << 20, "10b": 10}
	for in, want := range tests {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "-1", "1.5m", "0x10", "1e6"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want error", in, got)
		}
	}
}

func TestBigReplyExact(t *testing.T) {
	sizes := []int{minBig, minBig + 1, minBig + 2, 100, 101, 150, 1000, 4096, 65536, 3 << 20, 3<<20 + 7}
	for _, n := range sizes {
		got := BigReply(n)
		if len(got) != n {
			t.Fatalf("BigReply(%d) has %d bytes", n, len(got))
		}
		lines := strings.Split(got, "\n")
		if last := lines[len(lines)-1]; last != fmt.Sprintf("-- end of %d bytes --", n) {
			t.Fatalf("BigReply(%d) last line %q", n, last)
		}
		for i, c := range []byte(got) {
			if c >= 0x80 || c < 0x20 && c != '\n' || c == '"' || c == '\\' {
				t.Fatalf("BigReply(%d) byte %d is %q", n, i, c)
			}
		}
	}
}

func TestBigReplyMax(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MiB reply skipped in -short mode")
	}
	got := BigReply(MaxBig)
	if len(got) != MaxBig || !strings.HasSuffix(got, "\n-- end of 33554432 bytes --") {
		t.Fatalf("BigReply(MaxBig): %d bytes, tail %q", len(got), got[len(got)-40:])
	}
}

func TestChunkWords(t *testing.T) {
	in := "  Hello, world! This is\n a  test of chunking.  "
	for n := 1; n <= 5; n++ {
		chunks := chunkWords(in, n)
		if strings.Join(chunks, "") != in {
			t.Fatalf("n=%d: chunks do not concatenate back", n)
		}
		for _, c := range chunks[:len(chunks)-1] {
			if w := len(strings.Fields(c)); w != n {
				t.Fatalf("n=%d: chunk %q has %d words", n, c, w)
			}
		}
	}
	if got := chunkWords("", 3); len(got) != 0 {
		t.Fatalf("empty text gave %q", got)
	}
}

func TestIdentifierAndQuoting(t *testing.T) {
	tests := map[string]string{
		"Please fix the login bug!": "fixLoginBug",
		"what is 42?":               "do42",
		"?!":                        "handleRequest",
		"Refactor HTTP client pool": "refactorHttpClient",
	}
	for in, want := range tests {
		if got := identifier(in); got != want {
			t.Errorf("identifier(%q) = %q, want %q", in, got, want)
		}
	}
	if got := inlineCode("a`b"); got != "``a`b``" {
		t.Errorf("inlineCode = %q", got)
	}
	if got := fenced("go", "x := \"```\""); !strings.HasPrefix(got, "````go\n") || !strings.HasSuffix(got, "\n````\n") {
		t.Errorf("fenced = %q", got)
	}
	if got := shortPrompt("a\n  b   c", 4); got != "a b…" {
		t.Errorf("shortPrompt = %q", got)
	}
}
