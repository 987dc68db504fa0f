package render

import (
	"reflect"
	"strings"
	"testing"
)

func splitAll(text string) []string {
	var s splitter
	var out []string
	for _, sp := range s.finish(text, nil) {
		out = append(out, text[sp.start:sp.end])
	}
	return out
}

func TestSplitter(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []string
	}{
		"paragraphs":         {"a\nb\n\nc\n", []string{"a\nb\n", "c\n"}},
		"heading alone":      {"# T\ntext\n", []string{"# T\n", "text\n"}},
		"heading interrupts": {"text\n## H\nmore", []string{"text\n", "## H\n", "more"}},
		"fence with blank lines and hashes": {"```go\na\n\n# not a heading\n```\nafter\n",
			[]string{"```go\na\n\n# not a heading\n```\n", "after\n"}},
		"fence interrupts paragraph":    {"text\n```\ncode\n```\n", []string{"text\n", "```\ncode\n```\n"}},
		"tilde fence needs tilde close": {"~~~\n```\n~~~\nx\n", []string{"~~~\n```\n~~~\n", "x\n"}},
		"longer close":                  {"````\n```\n````\n", []string{"````\n```\n````\n"}},
		"loose list stays together":     {"- a\n\n- b\n\n  cont\n\nafter\n", []string{"- a\n\n- b\n\n  cont\n", "after\n"}},
		"list with fence inside":        {"- a\n\n  ```\n  x\n\n  y\n  ```\n- b\n\nz\n", []string{"- a\n\n  ```\n  x\n\n  y\n  ```\n- b\n", "z\n"}},
		"paragraph becomes list":        {"Intro:\n- a\n\n- b\n", []string{"Intro:\n- a\n\n- b\n"}},
		"table ends at blank":           {"| a |\n|---|\n| 1 |\n\nx\n", []string{"| a |\n|---|\n| 1 |\n", "x\n"}},
		"quote ends at blank":           {"> a\n> b\n\n> c\n", []string{"> a\n> b\n", "> c\n"}},
		"indented code":                 {"    a\n\n    b\nc\n", []string{"    a\n\n    b\n", "c\n"}},
		"leading blanks skipped":        {"\n\n  \nx", []string{"x"}},
		"crlf":                          {"a\r\n\r\nb\r\n", []string{"a\r\n", "b\r\n"}},
		"unclosed fence at end":         {"```\ncode", []string{"```\ncode"}},
		"ordered list":                  {"1. a\n2. b\n\n10) c\n", []string{"1. a\n2. b\n\n10) c\n"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := splitAll(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("split(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestSplitterTail checks what stays open while streaming.
func TestSplitterTail(t *testing.T) {
	var s splitter
	text := "para one\n\n- item\n\n"
	spans := s.feed(text, nil)
	if len(spans) != 1 || text[spans[0].start:spans[0].end] != "para one\n" {
		t.Fatalf("completed = %v", spans)
	}
	if tl := s.tail(text); text[tl.start:tl.end] != "- item\n\n" {
		t.Fatalf("tail = %q, want the list waiting for a continuation", text[tl.start:tl.end])
	}
	text += "next"
	if spans = s.feed(text, nil); len(spans) != 0 {
		t.Fatalf("an incomplete line must not close the list: %v", spans)
	}
	text += "\n"
	spans = s.feed(text, nil)
	if len(spans) != 1 || text[spans[0].start:spans[0].end] != "- item\n" {
		t.Fatalf("list should close at the non-continuation line: %v", spans)
	}
}

// FuzzSplit checks that feeding text in arbitrary pieces yields exactly the
// blocks of splitting it whole, that blocks are ordered and disjoint, and
// that no non-blank line is lost.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a\n\nb", "```\nx\n\n```\ny", "- a\n\n  b\n\nc", "# h\ntext\n| t |\n", "    code\n\nx"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, step uint8) {
		whole := splitAll(text)
		var s splitter
		var spans []span
		n := int(step%17) + 1
		for end := n; end < len(text); end += n {
			spans = s.feed(text[:end], spans)
		}
		spans = s.finish(text, spans)
		var pieces []string
		prev := 0
		for _, sp := range spans {
			if sp.start < prev || sp.end <= sp.start || sp.end > len(text) {
				t.Fatalf("bad span %v after %d in %q", sp, prev, text)
			}
			prev = sp.end
			pieces = append(pieces, text[sp.start:sp.end])
		}
		if !reflect.DeepEqual(pieces, whole) {
			t.Fatalf("streamed split differs:\n%q\n%q", pieces, whole)
		}
		var nonBlank, covered int
		for _, l := range strings.Split(text, "\n") {
			if !isBlankLine(l) {
				nonBlank++
			}
		}
		for _, p := range pieces {
			for _, l := range strings.Split(p, "\n") {
				if !isBlankLine(l) {
					covered++
				}
			}
		}
		if covered != nonBlank {
			t.Fatalf("blocks hold %d non-blank lines, text has %d: %q -> %q", covered, nonBlank, text, pieces)
		}
	})
}

func TestPrepareMarkdown(t *testing.T) {
	known := func(l string) bool { return l == "go" || l == "json" }
	tests := map[string]struct{ in, want string }{
		"no lang":        {"```\nx\n```\n", "```text\nx\n```\n"},
		"unknown lang":   {"~~~ brainfuck-ish {.x}\nx\n~~~", "~~~text\nx\n~~~"},
		"known lang":     {"```go title=x\nx\n```\n", "```go title=x\nx\n```\n"},
		"entity escaped": {"a &#27;[2J &#x9B; &#65; &#x1F600;\n", "a &amp;#27;[2J &amp;#x9B; &#65; &#x1F600;\n"},
		"entity in code": {"```go\n&#27;\n```\n&#0;", "```go\n&#27;\n```\n&amp;#0;"},
		"huge entity":    {"&#99999999;", "&amp;#99999999;"},
		"plain":          {"just text", "just text"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := prepareMarkdown(tc.in, known); got != tc.want {
				t.Errorf("prepareMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if !chromaKnows("go") || chromaKnows("no-such-language-xyz") {
		t.Error("chromaKnows should know go and not an invented language")
	}
}
