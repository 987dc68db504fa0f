package render

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/charmbracelet/x/ansi"
)

func spansString(sp []inlineSpan) string {
	var b strings.Builder
	for _, s := range sp {
		switch s.attr {
		case 0:
			b.WriteString(s.text)
		default:
			b.WriteString("<")
			if s.attr&attrCode != 0 {
				b.WriteString("c")
			}
			if s.attr&attrBold != 0 {
				b.WriteString("b")
			}
			if s.attr&attrItalic != 0 {
				b.WriteString("i")
			}
			b.WriteString(":" + s.text + ">")
		}
	}
	return b.String()
}

func TestParseInline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ran `ls -la`", "Ran <c:ls -la>"},
		{"Listed `.`", "Listed <c:.>"},
		{"``a ` b``", "<c:a ` b>"},
		{"` x `", "<c:x>"},
		{"**bold** and *it* and __b2__ and _i2_", "<b:bold> and <i:it> and <b:b2> and <i:i2>"},
		{"**`code` in bold**", "<cb:code><b: in bold>"},
		{"see [the docs](https://x.y/z) now", "see the docs now"},
		{"[](https://x.y)", "https://x.y"},
		{"<https://x.y/a>", "https://x.y/a"},
		{"a < b > c", "a < b > c"},
		{`\*not\* \` + "`x`", "*not* `x`"},
		{"snake_case_name", "snake_case_name"},
		{"2 * 3 * 4", "2 * 3 * 4"},
		{"unclosed `tick and **star", "unclosed `tick and **star"},
		{"[no link] (x)", "[no link] (x)"},
	} {
		if got := spansString(parseInline(c.in)); got != c.want {
			t.Errorf("parseInline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A plain StringOrMarkdown stays literal; markdown is parsed; both are
// sanitised.
func TestRichSpans(t *testing.T) {
	if got := spansString(richSpans(ahpwire.StringOrMarkdown{Text: "Ran `ls`"}, true)); got != "Ran `ls`" {
		t.Errorf("plain: %q", got)
	}
	if got := spansString(richSpans(ahpwire.StringOrMarkdown{Text: "Ran `ls\x1b[2J`\nnow", Markdown: true}, true)); got != "Ran <c:ls> now" {
		t.Errorf("hostile: %q", got)
	}
	for _, sp := range richSpans(ahpwire.StringOrMarkdown{Text: "`\x1b]0;x\x07` **\x9b2J**", Markdown: true}, true) {
		if untrustedEscape(sp.text) != "" || strings.ContainsRune(sp.text, 0x1b) {
			t.Errorf("span carries a control: %q", sp.text)
		}
	}
}

// inlineLine and inlineBlock never exceed their width and keep every
// character when there is room.
func TestInlineWidth(t *testing.T) {
	r := New(DarkStyles())
	spans := parseInline("Search **all** files for `func main` in *the repo* — 日本語のテキスト and more")
	full := ansi.Strip(r.inlineLine(spans, r.styles.Tool.Summary, 200))
	if full != "Search all files for func main in the repo — 日本語のテキスト and more" {
		t.Fatalf("full line: %q", full)
	}
	for w := 1; w <= 80; w++ {
		l := r.inlineLine(spans, r.styles.Tool.Summary, w)
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("inlineLine width %d: %d columns: %q", w, got, ansi.Strip(l))
		}
		if w < ansi.StringWidth(full) && !strings.HasSuffix(ansi.Strip(l), "…") {
			t.Errorf("inlineLine width %d: cut without an ellipsis: %q", w, ansi.Strip(l))
		}
		lines := r.inlineBlock(spans, r.styles.Tool.Summary, w+4, "    ")
		var words []string
		for _, bl := range lines {
			if got := ansi.StringWidth(bl); got > w+4 {
				t.Errorf("inlineBlock width %d: %d columns: %q", w+4, got, ansi.Strip(bl))
			}
			words = append(words, strings.TrimSpace(ansi.Strip(bl)))
		}
		if w >= 20 && strings.Join(words, " ") != full { // no word longer than the row
			t.Errorf("inlineBlock width %d lost text: %q", w+4, strings.Join(words, " "))
		}
	}
}

// The pill fits every width and keeps its state word over the summary.
func TestToolPillFitsWidth(t *testing.T) {
	r := New(DarkStyles())
	tc := baseTool(ahpwire.ToolPendingConfirmation)
	tc.InvocationMessage = rich("Run `go test ./...` in **/work/very/long/path/to/the/module**")
	for w := 6; w <= 120; w++ {
		l := r.toolPill(&tc, blockTimes{}, w, ViewOpts{})
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("width %d: pill is %d columns: %q", w, got, ansi.Strip(l))
		}
		if strings.Contains(l, "\n") {
			t.Errorf("width %d: pill spans lines", w)
		}
		if w >= 40 && !strings.Contains(ansi.Strip(l), "waiting for approval") {
			t.Errorf("width %d: state missing: %q", w, ansi.Strip(l))
		}
		if strings.Contains(ansi.Strip(l), "`") {
			t.Errorf("width %d: raw backticks: %q", w, ansi.Strip(l))
		}
	}
}

// The pill's duration is execution time: the approval wait is left out,
// and nothing is shown while the call waits.
func TestToolDurationExcludesApproval(t *testing.T) {
	r := New(DarkStyles())
	k := BlockKey{MessageID: "m", Index: 0}
	pc := baseTool(ahpwire.ToolPendingConfirmation)
	run := baseTool(ahpwire.ToolRunning)
	done := completedTool(true)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

	tm := r.observeTool(k, &pc, at(0), time.Time{})
	if d := toolDuration(&pc, tm, at(0)); d != "" {
		t.Errorf("waiting: duration %q", d)
	}
	tm = r.observeTool(k, &pc, at(30), time.Time{})
	if d := toolDuration(&pc, tm, at(30)); d != "" {
		t.Errorf("still waiting: duration %q", d)
	}
	_ = r.observeTool(k, &run, at(30), time.Time{})
	tm = r.observeTool(k, &run, at(33), time.Time{})
	if d := toolDuration(&run, tm, at(33)); d != "3s" {
		t.Errorf("running: %q, want 3s", d)
	}
	_ = r.observeTool(k, &done, at(34.5), time.Time{})
	tm = r.observeTool(k, &done, at(99), time.Time{})
	if d := toolDuration(&done, tm, at(99)); d != "4.5s" {
		t.Errorf("completed: %q, want 4.5s", d)
	}

	// Auto-approved and done between frames: the live span is the best
	// estimate. Seen waiting but never running: nothing.
	k2 := BlockKey{MessageID: "m", Index: 1}
	st := baseTool(ahpwire.ToolStreaming)
	r.observeTool(k2, &st, at(0), time.Time{})
	if d := toolDuration(&done, r.observeTool(k2, &done, at(2), time.Time{}), at(2)); d != "2.0s" {
		t.Errorf("unseen run, no approval: %q, want 2.0s", d)
	}
	k3 := BlockKey{MessageID: "m", Index: 2}
	r.observeTool(k3, &pc, at(0), time.Time{})
	if d := toolDuration(&done, r.observeTool(k3, &done, at(20), time.Time{}), at(20)); d != "" {
		t.Errorf("unseen run after approval: %q, want none", d)
	}
}

func TestWrapCode(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"    fmt.Println(a, b, c)", 16, []string{"    fmt.Println(", "a, b, c)"}},
		{"    fmt.Println(a, b, c)", 20, []string{"    fmt.Println(a,", "b, c)"}},
		{"abcdefghijklmnop", 5, []string{"abcde", "fghij", "klmno", "p"}},
		{"    abcdefghijkl", 8, []string{"    abcd", "efghijkl"}},
		{"a bcdefghijklmnop", 9, []string{"a bcdefgh", "ijklmnop"}},
		{"日本語のテキスト", 5, []string{"日本", "語の", "テキ", "スト"}},
		{"日本", 1, []string{"日", "本"}},
	} {
		got := wrapCode(c.in, c.limit)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapCode(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

// Wrapped diff lines keep their colour and mark continuation rows in the
// sign column; no row exceeds the width.
func TestDiffWrapKeepsGutter(t *testing.T) {
	r := New(DarkStyles())
	before := "a\n"
	after := "a\n" + strings.Repeat("word ", 30) + "\n"
	for _, w := range []int{20, 40, 80} {
		lines := r.diffLines(before, after, w, 0)
		var adds, conts int
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: %q too wide", w, ansi.Strip(l))
			}
			p := strings.TrimLeft(ansi.Strip(l), " ")
			switch {
			case strings.HasPrefix(p, "+"):
				adds++
			case strings.HasPrefix(p, contMark):
				conts++
				if !strings.Contains(l, r.styles.Diff.Add.Render(contMark + "word")[:20]) {
					t.Errorf("width %d: continuation row not in the added colour: %q", w, l)
				}
			}
		}
		if adds != 1 || conts == 0 {
			t.Errorf("width %d: %d added rows, %d continuation rows:\n%s", w, adds, conts, strings.Join(lines, "\n"))
		}
	}
}

// FuzzInline: any StringOrMarkdown text gives spans without controls, and a
// pill and a wrapped block that fit their width; wrapCode rows fit and keep
// every non-space character.
func FuzzInline(f *testing.F) {
	r := New(DarkStyles())
	f.Fuzz(func(t *testing.T, s string, width uint8) {
		w := int(width%120) + 1
		spans := richSpans(ahpwire.StringOrMarkdown{Text: s, Markdown: true}, true)
		for _, sp := range spans {
			if strings.ContainsRune(sp.text, 0x1b) || strings.Contains(sp.text, "\n") {
				t.Fatalf("span %q carries a control or newline", sp.text)
			}
		}
		l := r.inlineLine(spans, r.styles.Tool.Summary, w)
		if got := ansi.StringWidth(l); got > w {
			t.Fatalf("inlineLine %d columns > %d: %q", got, w, l)
		}
		if bad := untrustedEscape(l); bad != "" {
			t.Fatalf("untrusted sequence %q in %q", bad, l)
		}
		plain := SanitizeTabs(strings.ReplaceAll(s, "\n", " "), TabWidth)
		wc := max(w, 2) // a wide character needs two columns
		rows := wrapCode(plain, wc)
		for _, row := range rows {
			if got := ansi.StringWidth(row); got > wc {
				t.Fatalf("wrapCode row %d columns > %d: %q", got, wc, row)
			}
		}
		if strings.ReplaceAll(strings.Join(rows, ""), " ", "") != strings.ReplaceAll(plain, " ", "") {
			t.Fatalf("wrapCode lost text: %q -> %q", plain, rows)
		}
		for _, bl := range r.richBlock(ahpwire.StringOrMarkdown{Text: s, Markdown: true}, r.styles.Confirm.Title, w+4, "    ") {
			if got := ansi.StringWidth(bl); got > w+4 {
				t.Fatalf("richBlock %d columns > %d: %q", got, w+4, bl)
			}
			if bad := untrustedEscape(bl); bad != "" {
				t.Fatalf("untrusted sequence %q in %q", bad, bl)
			}
		}
	})
}

func TestRichPlainAndLine(t *testing.T) {
	md := ahpwire.StringOrMarkdown{Text: "Run `go test ./...` in **/work**\nnow", Markdown: true}
	if got := RichPlain(md); got != "Run go test ./... in /work now" {
		t.Errorf("RichPlain(markdown) = %q", got)
	}
	if got := RichPlain(ahpwire.StringOrMarkdown{Text: "Run `x` \x1b[2J"}); got != "Run `x`" {
		t.Errorf("RichPlain(plain) = %q", got)
	}
	r := New(DarkStyles())
	l := r.RichLine(md, r.Styles().Tool.Summary, 12)
	if ansi.StringWidth(l) > 12 || ansi.Strip(l) != "Run go test…" {
		t.Errorf("RichLine = %q", ansi.Strip(l))
	}
	if !strings.Contains(l, r.Styles().InlineCode.Inherit(r.Styles().Tool.Summary).Render("go test…")) {
		t.Errorf("RichLine does not style the code span: %q", l)
	}
}

// A tool whose invocation message is its title (Gemini's replace, Codex's
// exec, Claude Code's Bash through its adapter) shows it once.
func TestToolPillNoRepeatedTitle(t *testing.T) {
	r := New(DarkStyles())
	tc := baseTool(ahpwire.ToolPendingConfirmation)
	tc.DisplayName = "touch m1.txt"
	tc.InvocationMessage = rich("touch m1.txt")
	l := ansi.Strip(r.toolPill(&tc, blockTimes{}, 100, ViewOpts{}))
	if strings.Count(l, "touch m1.txt") != 1 || !strings.Contains(l, "waiting for approval") {
		t.Fatalf("pill %q", l)
	}
	tc.InvocationMessage = rich("Run `ls`")
	if l := ansi.Strip(r.toolPill(&tc, blockTimes{}, 100, ViewOpts{})); !strings.Contains(l, "Run ls") {
		t.Fatalf("a different message is shown: %q", l)
	}
}
