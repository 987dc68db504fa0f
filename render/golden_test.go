package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/internal/testkit"
)

var goldenWidths = []int{40, 80, 120}

// renderCase renders a golden case with a fresh Renderer.
func renderCase(c goldenCase, st Styles, width int) Rendered {
	r := New(st)
	if c.prep != nil {
		c.prep(r, width)
	}
	return r.RenderMessage(c.msg, width, c.view)
}

// TestGolden renders every block kind and state at widths 40, 80 and 120
// with styles stripped, and at 80 with ANSI kept (dark and light).
func TestGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			checkPlainGoldens(t, "", c)
			for _, st := range []Styles{DarkStyles(), LightStyles()} {
				out := renderCase(c, st, 80)
				testkit.Golden(t, "ansi/"+c.name+"_"+st.Name, out.String()+"\n")
			}
		})
	}
}

// checkRenderedInvariants asserts what every rendering must satisfy: lines
// fit the width, only SGR and OSC 8 escapes appear, no other control
// characters, and spans are ordered and inside the lines.
func checkRenderedInvariants(t *testing.T, out Rendered, width int) {
	t.Helper()
	if out.Sections != nil { // as one run of lines, spans by line
		at := make([]int, len(out.Sections)+1)
		for i, s := range out.Sections {
			n := len(s.Lines)
			if s.Page != nil {
				n = len(s.Page.Lines())
			}
			at[i+1] = at[i] + n
		}
		flat := Rendered{Lines: out.All()}
		for _, s := range out.Spans {
			s.Start, s.End, s.StartSec, s.EndSec = at[s.StartSec]+s.Start, at[s.EndSec]+s.End, 0, 0
			flat.Spans = append(flat.Spans, s)
		}
		out = flat
	}
	for i, l := range out.Lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d columns wide (> %d): %q", i, w, width, ansi.Strip(l))
		}
		if bad := untrustedEscape(l); bad != "" {
			t.Errorf("line %d carries an untrusted sequence or control %q: %q", i, bad, l)
		}
	}
	prev := 0
	for _, s := range out.Spans {
		if s.Start < prev || s.End <= s.Start || s.End > len(out.Lines) {
			t.Errorf("bad span %+v (previous end %d, %d lines)", s, prev, len(out.Lines))
		}
		prev = s.End
	}
}

// untrustedEscape returns the first escape sequence or control character
// in l that is neither SGR nor an OSC 8 hyperlink ("" if none).
func untrustedEscape(l string) string {
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == 0x1b:
			j, keep, _ := scanTrusted(l, i)
			if !keep {
				return l[i:j]
			}
			i = j
		case c < 0x20 || c == 0x7f:
			return l[i : i+1]
		case c == 0xc2 && i+1 < len(l) && l[i+1] >= 0x80 && l[i+1] <= 0x9f:
			return l[i : i+2]
		default:
			i++
		}
	}
	return ""
}

// checkPlainGoldens renders c at every golden width with styles stripped,
// checks the layout invariants and compares with testdata/golden/<prefix><name>_w<width>.
func checkPlainGoldens(t *testing.T, prefix string, c goldenCase) {
	t.Helper()
	for _, w := range goldenWidths {
		out := renderCase(c, DarkStyles(), w)
		checkRenderedInvariants(t, out, w)
		var b strings.Builder
		for _, l := range out.All() {
			b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
			b.WriteByte('\n')
		}
		testkit.Golden(t, prefix+c.name+"_w"+itoa(w), b.String())
	}
}
