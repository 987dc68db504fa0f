package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
)

// renderHostile is server text a hostile host sends: escape sequences of
// every kind, C1 controls, bidi overrides, invalid UTF-8, markdown whose
// link targets try to break out of an OSC 8 hyperlink, and hyphenated
// text that ansi.Wrap used to let run past the width.
var renderHostile = []string{
	"\x1b]52;c;SGVsbG8=\x07clip \x1b]0;title\x07 \x1bP+q544e\x1b\\ \x1b[2J\x1b[6n",
	"\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\ [x](http://a/\x1b]52;c;QQ==\x07b) <http://e/\x07x>",
	"\u009b31m \u009d0;t\u009c \u0090dcs\u009c \u0085 \u202eevil\u202c \xff\xfe\xed\xa0\x80 trailing \x1b",
	"```\n\x1b]52;c;QUFB\x07code\n```\n# \x1b[5mheading\n> quote \u009b2J\n- item \x1b]8;;x\x07",
	"Error: ``` code ``` # heading > quote - item -- x --- y - z",
	"aaaa bbbb - cccc dddd -- eeee ffff --- gggg",
}

// TestWrapTextNeverOverflows is the regression test for ansi.Wrap keeping
// trailing hyphens past the width.
func TestWrapTextNeverOverflows(t *testing.T) {
	for _, s := range renderHostile[4:] {
		for w := 1; w <= 40; w++ {
			lines := wrapText(s, w)
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("width %d: %q wraps to a %d-cell line %q", w, s, ansi.StringWidth(l), l)
				}
			}
			if got, want := strings.Join(strings.Fields(strings.Join(lines, " ")), ""), strings.Join(strings.Fields(s), ""); got != want {
				t.Fatalf("width %d: wrapping lost text: %q != %q", w, got, want)
			}
		}
	}
}

// TestHostileTextThroughPublicEntryPoints runs every hostile string through
// Sanitize, SanitizeTabs, Markdown (streaming and final), RichLine,
// RichPlain and RenderMessage at three widths.
func TestHostileTextThroughPublicEntryPoints(t *testing.T) {
	r := New(DarkStyles())
	all := append(append([]string(nil), renderHostile...), strings.Join(renderHostile, "\n"))
	for i, h := range all {
		for _, s := range []string{Sanitize(h), SanitizeTabs(h, 8), RichPlain(ahpwire.StringOrMarkdown{Text: h}), RichPlain(ahpwire.StringOrMarkdown{Text: h, Markdown: true})} {
			if strings.ContainsRune(s, 0x1b) || !utf8.ValidString(s) {
				t.Errorf("case %d: unsafe plain output %q", i, s)
			}
			for _, c := range s {
				if c >= 0x80 && c <= 0x9f {
					t.Errorf("case %d: C1 control in %q", i, s)
				}
			}
		}
		for _, w := range []int{MinWidth, 80, 200} {
			for _, done := range []bool{false, true} {
				checkRenderedInvariants(t, Rendered{Lines: r.Markdown(itoa(i), h, done, w)}, w)
			}
			for _, md := range []bool{false, true} {
				l := r.RichLine(ahpwire.StringOrMarkdown{Text: h, Markdown: md}, r.Styles().Error.Text, w)
				checkRenderedInvariants(t, Rendered{Lines: strings.Split(l, "\n")}, w)
			}
			checkRenderedInvariants(t, r.RenderMessage(finishedMessage("m"+itoa(i), h), w, ViewOpts{}), w)
		}
	}
}
