package render

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/bytesize"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

// TestCompletedBlocksRenderedOnce streams a document and checks that every
// completed block was rendered with highlighting exactly once, however many
// frames were drawn, while the open tail was re-rendered without it.
func TestCompletedBlocksRenderedOnce(t *testing.T) {
	doc := genMarkdown(8_000)
	r := New(DarkStyles())
	frames := 0
	for end := 20; end < len(doc); end += 20 {
		r.Markdown("m", doc[:end], false, 80)
		frames++
	}
	r.Markdown("m", doc, true, 80)
	chunks := len(splitAll(doc))
	if r.md.hlRenders != chunks {
		t.Errorf("highlighted renders = %d, want one per block (%d)", r.md.hlRenders, chunks)
	}
	if r.md.plainRenders == 0 || r.md.plainRenders >= frames {
		t.Errorf("plain tail renders = %d over %d frames: want some, and fewer than frames (open fences are drawn without glamour)", r.md.plainRenders, frames)
	}
	// Rendering the finished text again costs nothing.
	before := r.md.hlRenders + r.md.plainRenders
	r.Markdown("m", doc, true, 80)
	if after := r.md.hlRenders + r.md.plainRenders; after != before {
		t.Errorf("re-render of a finished text called glamour %d times", after-before)
	}
}

var sgrRe = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// distinctColours counts the distinct SGR sequences in lines.
func distinctColours(lines []string) int {
	seen := map[string]bool{}
	for _, l := range lines {
		for _, s := range sgrRe.FindAllString(l, -1) {
			if s != "\x1b[m" && s != "\x1b[0m" {
				seen[s] = true
			}
		}
	}
	return len(seen)
}

// TestTailIsNotHighlighted checks that an open Go fence is drawn in one
// colour while it streams and highlighted once it closes.
func TestTailIsNotHighlighted(t *testing.T) {
	r := New(DarkStyles())
	code := "```go\nfunc main() {\n\tx := map[string]int{\"a\": 1}\n\tfmt.Println(x, 42)\n}\n"
	open := r.Markdown("m", code, false, 80)
	if n := distinctColours(open); n > 1 {
		t.Errorf("open fence uses %d colours, want plain (1): %q", n, open)
	}
	if got := ansi.Strip(strings.Join(open, "\n")); !strings.Contains(got, `x := map[string]int{"a": 1}`) {
		t.Errorf("open fence lost its text: %q", got)
	}
	closed := r.Markdown("m", code+"```\n", true, 80)
	if n := distinctColours(closed); n < 3 {
		t.Errorf("closed Go fence uses %d colours, want highlighting", n)
	}
}

// TestUnlabeledFenceIsPlain checks that fences with no or an unknown
// language are not highlighted (chroma would guess, slowly).
func TestUnlabeledFenceIsPlain(t *testing.T) {
	for _, fence := range []string{"```\n", "```klingon\n"} {
		r := New(DarkStyles())
		out := r.Markdown("m", fence+"func main() { return 42 }\n```\n", true, 80)
		if n := distinctColours(out); n > 2 {
			t.Errorf("%q fence rendered with %d colours: guessed highlighting", fence, n)
		}
	}
}

func finishedMessage(id, text string) *reducer.Message {
	s := reducer.ReduceAll(reducer.State{},
		reducer.MessageStart{ID: id, TurnID: id},
		reducer.BlockStart{MessageID: id, BlockID: "m", Kind: reducer.KindText, Text: text},
		reducer.MessageEnd{MessageID: id, Status: reducer.StatusComplete})
	return s.Messages[len(s.Messages)-1]
}

// TestResizeRendersOnlyWhatIsAsked checks that after a width change only
// the messages asked for are re-rendered, and that going back to a cached
// width renders nothing.
func TestResizeRendersOnlyWhatIsAsked(t *testing.T) {
	a, b := finishedMessage("a", genMarkdown(3000)), finishedMessage("b", genMarkdown(3000)+"tail\n")
	r := New(DarkStyles())
	r.RenderMessage(a, 80, ViewOpts{})
	r.RenderMessage(b, 80, ViewOpts{})
	base := r.md.hlRenders
	r.RenderMessage(a, 100, ViewOpts{})
	blocksA := len(splitAll(a.Blocks.At(0).Text()))
	if got := r.md.hlRenders - base; got != blocksA {
		t.Fatalf("resize of a: %d renders, want %d (b must not be touched)", got, blocksA)
	}
	r.RenderMessage(b, 100, ViewOpts{})
	mid := r.md.hlRenders
	r.RenderMessage(a, 80, ViewOpts{})
	if r.md.hlRenders != mid {
		t.Errorf("back to width 80: %d renders, want 0 (cached)", r.md.hlRenders-mid)
	}
}

// TestFinishedMessageCached checks that a finished message is served from
// the message cache, and that view changes invalidate it.
func TestFinishedMessageCached(t *testing.T) {
	m := finishedMessage("a", "hello **world**\n")
	r := New(DarkStyles())
	one := r.RenderMessage(m, 80, ViewOpts{})
	two := r.RenderMessage(m, 80, ViewOpts{Now: time.Unix(99, 0)})
	if &one.Lines[0] != &two.Lines[0] {
		t.Error("second render of a finished message was not served from the cache")
	}
	focused := r.RenderMessage(m, 80, ViewOpts{Focused: BlockKey{MessageID: "a", Index: 0}})
	if !strings.Contains(focused.Lines[0], strings.TrimSpace(focusMark)) {
		t.Errorf("focus not shown: %q", focused.Lines[0])
	}
	if again := r.RenderMessage(m, 80, ViewOpts{}); strings.Contains(again.Lines[0], strings.TrimSpace(focusMark)) {
		t.Error("focus leaked into the unfocused rendering")
	}
}

// TestSpans checks that spans locate every rendered block.
func TestSpans(t *testing.T) {
	var full goldenCase
	for _, c := range goldenCases() {
		if c.name == "turn_focused" {
			full = c
		}
	}
	out := New(DarkStyles()).RenderMessage(full.msg, 80, ViewOpts{})
	if len(out.Spans) != 3 {
		t.Fatalf("spans = %+v, want thinking, tool call and text", out.Spans)
	}
	want := []reducer.BlockKind{reducer.KindThinking, reducer.KindToolCall, reducer.KindText}
	for i, s := range out.Spans {
		if s.Kind != want[i] || s.Key != (BlockKey{MessageID: full.msg.ID, Index: i}) {
			t.Errorf("span %d = %+v", i, s)
		}
	}
	if got := ansi.Strip(out.Lines[out.Spans[1].Start]); !strings.Contains(got, "Run command") {
		t.Errorf("tool span starts at %q", got)
	}
	if sp, ok := out.SpanOf(BlockKey{MessageID: full.msg.ID, Index: 2}); !ok || sp.End > len(out.Lines) {
		t.Errorf("SpanOf text = %+v, %v", sp, ok)
	}
}

// TestNoNowNoDuration checks that without a Now nothing is timed.
func TestNoNowNoDuration(t *testing.T) {
	s := reducer.ReduceAll(startState(), thinkStart("r", "x", false))
	r := New(DarkStyles())
	r.RenderMessage(msgOf(s), 80, ViewOpts{})
	out := ansi.Strip(r.RenderMessage(msgOf(s), 80, ViewOpts{}).String())
	if strings.TrimSpace(out) != "✻ Thinking…" {
		t.Errorf("got %q", out)
	}
}

func TestNeededResources(t *testing.T) {
	pc := baseTool(ahpwire.ToolPendingConfirmation)
	pc.Edits = &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{*fileEdit()}}
	m := msgOf(reducer.ReduceAll(startState(), toolStart(pc), toolStart(completedTool(true, editContent(&ahpwire.FileEdit{
		After: &ahpwire.FileEditSide{URI: "file:///x", Content: ahpwire.ContentRef{URI: "mem:/x"}}})))))
	got := NeededResources(m, ViewOpts{})
	// The completed edit's contents too: its diff shows collapsed.
	if strings.Join(got, " ") != "mem:/before/main.go mem:/after/main.go mem:/x" {
		t.Errorf("pending confirmation needs its edits, the completed edit its diff: %q", got)
	}
	got = NeededResources(m, ViewOpts{Expanded: expand(m, 1), Resources: resources})
	if strings.Join(got, " ") != "mem:/x" {
		t.Errorf("expanded tool needs its edit: %q", got)
	}
	if NeededResources(nil, ViewOpts{}) != nil {
		t.Error("nil message needs nothing")
	}
}

// TestStylesDiffer checks that dark and light differ in colour only.
func TestStylesDiffer(t *testing.T) {
	for _, c := range goldenCases() {
		d := renderCase(c, DarkStyles(), 80)
		l := renderCase(c, LightStyles(), 80)
		if ansi.Strip(d.String()) != ansi.Strip(l.String()) {
			t.Errorf("%s: dark and light differ in text", c.name)
		}
	}
	if StylesFor(true).Name != "dark" || StylesFor(false).Name != "light" {
		t.Error("StylesFor picks the wrong styles")
	}
	r := New(DarkStyles())
	m := finishedMessage("a", "```go\nfunc f() {}\n```\n")
	dark := r.RenderMessage(m, 80, ViewOpts{}).String()
	r.SetStyles(LightStyles())
	light := r.RenderMessage(m, 80, ViewOpts{}).String()
	if dark == light {
		t.Error("SetStyles did not change the colours")
	}
	if r.Styles().Name != "light" {
		t.Error("Styles() does not report the new styles")
	}
}

// TestNarrowWidths checks the width invariant below and at MinWidth.
func TestNarrowWidths(t *testing.T) {
	for _, c := range goldenCases() {
		for _, w := range []int{1, MinWidth, MinWidth + 7} {
			out := renderCase(c, DarkStyles(), w)
			checkRenderedInvariants(t, out, max(w, MinWidth))
		}
	}
}

// TestConcurrentUse renders from several goroutines (run with -race).
// TestConcurrentUse renders from four goroutines sharing one Renderer and
// its caches, and checks that each gets exactly what the same calls give on
// a fresh Renderer used from one goroutine (run it with -race as well).
func TestConcurrentUse(t *testing.T) {
	cases := goldenCases()
	doc := genMarkdown(4000)
	// work is goroutine g's sequence of calls; it returns every result.
	work := func(r *Renderer, g int) []string {
		var out []string
		for i, c := range cases {
			rd := r.RenderMessage(c.msg, 60+g*10, c.view)
			out = append(out, rd.String()+fmt.Sprint(rd.Spans))
			if i%8 == 0 {
				md := r.Markdown("doc"+itoa(g), doc[:len(doc)*(i+1)/len(cases)], false, 70)
				out = append(out, strings.Join(md, "\n"))
			}
		}
		return out
	}
	const workers = 4
	want := make([][]string, workers)
	for g := range workers {
		want[g] = work(New(DarkStyles()), g)
	}
	shared := New(DarkStyles())
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() { got[g] = work(shared, g) })
	}
	wg.Wait()
	for g := range workers {
		if len(got[g]) != len(want[g]) {
			t.Fatalf("goroutine %d: %d results, want %d", g, len(got[g]), len(want[g]))
		}
		for i := range want[g] {
			if got[g][i] != want[g][i] {
				t.Errorf("goroutine %d, call %d: the shared renderer gave a different result:\n%s", g, i, testkit.FirstDiff(got[g][i], want[g][i]))
			}
		}
	}
}

func TestRenderNil(t *testing.T) {
	r := New(DarkStyles())
	if out := r.RenderMessage(nil, 80, ViewOpts{}); len(out.Lines) != 0 {
		t.Error("nil message rendered lines")
	}
	if r.RenderBlock(nil, nil, 80, ViewOpts{}) != nil {
		t.Error("nil block rendered lines")
	}
	m := finishedMessage("a", "x")
	if got := r.RenderBlock(m, m.Blocks.At(0), 80, ViewOpts{}); len(got) != 1 || ansi.Strip(got[0]) != "  x" {
		t.Errorf("RenderBlock = %q", got)
	}
}

func TestFrameGate(t *testing.T) {
	var g FrameGate
	now := time.Unix(100, 0)
	if g.Due(now) {
		t.Fatal("nothing marked, nothing due")
	}
	g.Mark()
	if !g.Pending() || !g.Due(now) {
		t.Fatal("first marked frame is due")
	}
	g.Mark()
	g.Mark()
	if g.Due(now.Add(5 * time.Millisecond)) {
		t.Fatal("second render within the interval")
	}
	if !g.Due(now.Add(FrameInterval)) || g.Pending() {
		t.Fatal("due after the interval, and then clean")
	}
	g2 := FrameGate{Interval: time.Second}
	g2.Mark()
	g2.Due(now)
	g2.Mark()
	if g2.Due(now.Add(500 * time.Millisecond)) {
		t.Fatal("custom interval ignored")
	}
}

func TestLineCacheEvicts(t *testing.T) {
	c := newLineCache[chunkKey](1000)
	for i := range 100 {
		c.put(chunkKey{hash: uint64(i)}, []string{strings.Repeat("x", 50)})
	}
	if c.used > 1000 || c.len() >= 100 {
		t.Fatalf("cache holds %d entries, %d bytes", c.len(), c.used)
	}
	if _, ok := c.get(chunkKey{hash: 99}); !ok {
		t.Error("newest entry evicted")
	}
	if _, ok := c.get(chunkKey{hash: 0}); ok {
		t.Error("oldest entry kept")
	}
}

func TestStreamStateRestartsOnRewrite(t *testing.T) {
	r := New(DarkStyles())
	r.Markdown("m", "first paragraph\n\nsecond", false, 80)
	got := ansi.Strip(strings.Join(r.Markdown("m", "other text\n", true, 80), "\n"))
	if strings.Contains(got, "first") || !strings.Contains(got, "other text") {
		t.Errorf("rewritten text rendered as %q", got)
	}
}

func TestFmtHelpers(t *testing.T) {
	for d, want := range map[time.Duration]string{
		850 * time.Millisecond: "850ms", 3200 * time.Millisecond: "3.2s", 42 * time.Second: "42s",
		125 * time.Second: "2m05s", 62 * time.Minute: "1h02m", -time.Second: "0ms",
	} {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if fmtCount(1234567) != "1,234,567" || fmtCount(12) != "12" || fmtCount(-1000) != "-1,000" {
		t.Error("fmtCount")
	}
	if bytesize.Format(512) != "512 B" || bytesize.Format(2048) != "2.0 KB" || bytesize.Format(3<<20) != "3.0 MB" {
		t.Error("fmtBytes")
	}
}

func TestCapLines(t *testing.T) {
	s := "1\n2\n3\n4\n5"
	if got, n := capLines(s, 2, false); got != "1\n2" || n != 3 {
		t.Errorf("head: %q %d", got, n)
	}
	if got, n := capLines(s, 2, true); got != "4\n5" || n != 3 {
		t.Errorf("tail: %q %d", got, n)
	}
	if got, n := capLines(s, 5, true); got != s || n != 0 {
		t.Errorf("fits: %q %d", got, n)
	}
}

// TestLongOutputCapped checks that a huge terminal output shows its last
// lines and a note, and a huge text output its first lines.
func TestLongOutputCapped(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		b.WriteString("line " + itoa(i) + "\n")
	}
	tc := completedTool(true,
		terminalContent("", "seq", ahpwire.TerminalCommandResult{Preview: b.String(), ExitCode: intp(0)}),
		ahpwire.ToolResultContent{Type: ahpwire.ContentText, Text: b.String()})
	m := msgOf(reducer.ReduceAll(startState(), toolStart(tc)))
	out := ansi.Strip(New(DarkStyles()).RenderMessage(m, 80, ViewOpts{Expanded: expand(m, 0)}).String())
	for _, want := range []string{"… 4800 earlier lines", "line 4999", "line 399\n", "… 4600 more lines"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Count(out, "line 4799\n") != 0 || strings.Count(out, "line 400\n") != 0 {
		t.Error("capped lines shown")
	}
}
