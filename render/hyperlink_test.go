package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// osc8Targets returns the targets of every OSC 8 hyperlink opened in lines.
func osc8Targets(lines []string) []string {
	re := regexp.MustCompile("\x1b\\]8;[^;\x07\x1b]*;([^\x07\x1b]+)(?:\x07|\x1b\\\\)")
	var out []string
	for _, l := range lines {
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestHyperlinksOnlyForSafeSchemes: markdown links become OSC 8 hyperlinks
// only for http, https and mailto; other schemes are plain text; a label
// that reads as one URL never links to another, and the real target is
// still shown (issue 24 item 10).
func TestHyperlinksOnlyForSafeSchemes(t *testing.T) {
	r := New(DarkStyles())
	cases := []struct {
		md     string
		want   []string // every hyperlink target allowed in the output
		target string   // text that must be visible
	}{
		{"[x](javascript:alert(1))", nil, "javascript:alert(1)"},
		{"[f](file:///etc/passwd)", nil, "file:///etc/passwd"},
		{"[v](vscode://x/y)", nil, "vscode://x/y"},
		{"<smb://host/share>", nil, "smb://host/share"},
		{"[d](data:text/html,hi)", nil, "data:text/html,hi"},
		{"[ok](https://ok.example/a)", []string{"https://ok.example/a"}, "https://ok.example/a"},
		{"[mail](mailto:a@b.example)", []string{"mailto:a@b.example"}, "mailto:a@b.example"},
		{"[https://bank.example/](https://evil.example/x)", []string{"https://evil.example/x"}, "https://evil.example/x"},
	}
	for i, c := range cases {
		lines := r.Markdown("l"+itoa(i), c.md, true, 100)
		got := osc8Targets(lines)
		for _, g := range got {
			ok := false
			for _, w := range c.want {
				ok = ok || g == w
			}
			if !ok {
				t.Errorf("%q: hyperlink to %q", c.md, g)
			}
		}
		if c.want != nil && len(got) == 0 {
			t.Errorf("%q: no hyperlink at all", c.md)
		}
		if plain := ansi.Strip(strings.Join(lines, "\n")); !strings.Contains(plain, c.target) {
			t.Errorf("%q: target %q not shown in %q", c.md, c.target, plain)
		}
	}
	// The label that names another URL is not itself a link.
	lines := r.Markdown("lbl", "[https://bank.example/](https://evil.example/x)", true, 100)
	if re := regexp.MustCompile("\x1b\\]8;[^\x07]*;https://evil[^\x07]*\x07(?:\x1b\\[[0-9;]*m)*https://bank"); re.MatchString(strings.Join(lines, "")) {
		t.Errorf("the label https://bank.example/ links to https://evil.example/x: %q", lines)
	}
}
