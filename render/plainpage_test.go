package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// pagedMarkdown passes PlainAfter, then has blocks of every shape the
// pages must cut: short paragraphs, a fenced block of ~100 KB with blank
// lines (one block over several pages), runs of blank lines, a heading
// straight after a paragraph (no blank line between the blocks), a line
// longer than a page, and non-ASCII text.
func pagedMarkdown() string {
	var b strings.Builder
	b.WriteString("# Start\n\nearly **markdown**\n\n")
	for b.Len() < PlainAfter+500 {
		b.WriteString("a paragraph line that fills the first part of the text\nand its second line\n\n")
	}
	b.WriteString("```go\n")
	for i := 0; b.Len() < PlainAfter+100_000; i++ {
		b.WriteString("func f() { return 1 } // code line inside one fenced block\n")
		if i%50 == 0 {
			b.WriteString("\n\n")
		}
	}
	b.WriteString("```\n\n\n\n\nafter the fence\n# heading right after\npara ünïcödé 世界 text\n\n")
	b.WriteString(strings.Repeat("word ", 5000) + "\n\n") // 25 KB: a line longer than a page
	for range 300 {
		b.WriteString("closing paragraphs, one line each, to cross more pages at 16 KiB\n\n")
	}
	b.WriteString("the last line")
	return b.String()
}

// plainReference lays the blocks past PlainAfter out as the renderer did
// before pages: each completed block whole, a blank line between them.
func plainReference(e *markdownEngine, text string, width int) []string {
	var s splitter
	var out []string
	for _, sp := range s.finish(text, nil) {
		src := strings.Trim(text[sp.start:sp.end], "\n")
		if sp.start < PlainAfter || src == "" {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, e.plainLines(src, width)...)
	}
	return out
}

// TestPagesLayOutLikeWholeBlocks checks that cutting the plain part into
// pages changes nothing on screen: at several widths the pages together
// equal the blocks laid out whole, a page holds about pageBytes of source,
// and streamed equals whole.
func TestPagesLayOutLikeWholeBlocks(t *testing.T) {
	doc := pagedMarkdown()
	for _, width := range []int{120, 60, 24} {
		r := New(DarkStyles())
		d := r.md.doc("m", doc, true, width)
		if len(d.pages) < 5 {
			t.Fatalf("%d pages for %d bytes past PlainAfter", len(d.pages), len(doc)-PlainAfter)
		}
		size := func(p pageRef) int { return int(p.pg.pieces[p.n-1].b - p.pg.pieces[0].a) }
		for i, p := range d.pages[:len(d.pages)-1] {
			src := size(p)
			switch {
			case src > pageBytes && (p.n != 1 || src > maxLineBytes || strings.Contains(doc[p.pg.start:p.pg.start+src], "\n")):
				t.Errorf("page %d holds %d bytes of source in %d pieces", i, src, p.n)
			case src < pageBytes/2 && size(d.pages[i+1]) < pageBytes-src:
				t.Errorf("page %d holds %d bytes of source, and the next would have fit", i, src)
			}
		}
		all := r.Markdown("m", doc, true, width)
		lead := 0
		if d.lead {
			lead = 1
		}
		got := all[len(d.head)+lead:]
		want := plainReference(r.md, doc, width)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("width %d: line %d is %q, laid out whole it is %q", width, i, got[i], want[i])
				}
			}
			t.Fatalf("width %d: %d lines, laid out whole %d", width, len(got), len(want))
		}
		for i, l := range all {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("width %d: line %d is %d columns", width, i, w)
			}
		}
		if streamed := streamMarkdown(New(DarkStyles()), "m", doc, 7<<10, 3, width); strings.Join(streamed, "\n") != strings.Join(all, "\n") {
			t.Errorf("width %d: streamed render differs from whole render", width)
		}
	}
}

// TestVeryLongLineIsCut checks that a line longer than maxLineBytes is
// laid out in pieces that keep every byte and fit the width.
func TestVeryLongLineIsCut(t *testing.T) {
	long := strings.Repeat("0123456789abcdé ", 3*maxLineBytes/16)
	doc := strings.Repeat("p\n\n", PlainAfter/3+10) + long + "\n\nend"
	r := New(DarkStyles())
	d := r.md.doc("m", doc, true, 80)
	var rows strings.Builder
	for _, p := range d.pages {
		for _, l := range p.pg.layout(r.md, p.n, 80) {
			if ansi.StringWidth(l) > 80 {
				t.Fatalf("row of %d columns", ansi.StringWidth(l))
			}
			rows.WriteString(strings.TrimSpace(ansi.Strip(l)))
		}
	}
	if len(d.pages) < 3 {
		t.Fatalf("a %d-byte line is on %d pages", len(long), len(d.pages))
	}
	if got := strings.ReplaceAll(rows.String(), " ", ""); !strings.Contains(got, strings.ReplaceAll(long, " ", "")) || !strings.HasSuffix(got, "end") {
		t.Fatal("the long line lost text")
	}
}

// TestPageCacheIsBoundedByBytes lays out every page of a 4 MB message
// through its sections: the page cache stays within its bound, Rendered
// holds no laid-out page, and All equals the whole layout.
func TestPageCacheIsBoundedByBytes(t *testing.T) {
	var b strings.Builder
	for b.Len() < 4<<20 {
		b.WriteString("0001234 the quick brown fox jumps over the lazy dog, every byte counted here\n")
		if b.Len()%1700 < 80 {
			b.WriteString("\n")
		}
	}
	text := b.String()
	const bound = 256 << 10
	r := New(DarkStyles(), WithPageCacheBytes(bound))
	out := r.RenderMessage(finishedMessage("big", text), 100, ViewOpts{})
	if out.Sections == nil || out.Lines != nil {
		t.Fatal("a 4 MB text is not rendered as sections")
	}
	pages, eager := 0, 0
	for _, s := range out.Sections {
		if s.Page != nil {
			pages++
		} else {
			eager += len(s.Lines)
		}
	}
	if pages < (4<<20-PlainAfter)/pageBytes || eager > 20000 {
		t.Fatalf("%d pages and %d laid-out lines", pages, eager)
	}
	all := out.All()
	if n := r.PageCacheBytes(); n > bound+2*pageBytes*2 {
		t.Fatalf("page cache holds %d bytes, bound %d", n, bound)
	}
	if n := r.PageLayouts(); n != pages {
		t.Fatalf("%d page layouts for %d pages", n, pages)
	}
	whole := New(DarkStyles()).RenderMessage(finishedMessage("big", text), 100, ViewOpts{}).All()
	if strings.Join(all, "\n") != strings.Join(whole, "\n") {
		t.Fatal("the sections differ between renderers")
	}
	md := New(DarkStyles()).Markdown("x", text, true, 100)
	if !strings.Contains(strings.Join(all, "\n"), strings.Join(md, "\n")) {
		t.Fatal("the message does not hold the text's layout")
	}
	// A page asked for again comes from the cache.
	last := out.Sections[len(out.Sections)-1]
	for i := len(out.Sections) - 1; last.Page == nil; i-- {
		last = out.Sections[i]
	}
	n := r.PageLayouts()
	last.Page.Lines()
	if r.PageLayouts() != n {
		t.Fatal("the most recently laid-out page was laid out again")
	}
}

// TestReplacedTextIsForgotten renders a long reply, then the same message
// with its text replaced by a content reference (as the client does to drop
// a long finished reply): the renderer keeps no state holding the text.
func TestReplacedTextIsForgotten(t *testing.T) {
	text := strings.Repeat("a line of a long reply\n\n", PlainAfter/20)
	r := New(DarkStyles())
	r.RenderMessage(finishedMessage("big", text), 100, ViewOpts{})
	if st := r.md.states[mdID(BlockKey{MessageID: "big"})]; st == nil || st.text != text {
		t.Fatal("no state for the text")
	}
	s := reducer.ReduceAll(reducer.State{},
		reducer.MessageStart{ID: "big", TurnID: "big"},
		reducer.BlockStart{MessageID: "big", BlockID: "m", Kind: reducer.KindContentRef,
			Ref: &ahpwire.ContentRef{URI: "ahptui-part:/c/big/0/0", ContentType: "text/markdown"}},
		reducer.MessageEnd{MessageID: "big", Status: reducer.StatusComplete})
	r.RenderMessage(s.Messages[0], 100, ViewOpts{})
	for id, st := range r.md.states {
		if len(st.text) >= len(text) {
			t.Fatalf("state %q still holds the %d-byte text", id, len(st.text))
		}
	}
}

// TestHugeFirstBlockIsPaged checks that one block larger than PlainAfter
// at the start of a text (a huge code fence) is paged rather than handed to
// glamour whole, and streams to the same result.
func TestHugeFirstBlockIsPaged(t *testing.T) {
	var b strings.Builder
	b.WriteString("intro paragraph\n\n```\n")
	for b.Len() < PlainAfter+50_000 {
		b.WriteString("x := compute(1, 2, 3) // a line of a long code block\n")
	}
	b.WriteString("```\n\nafter")
	doc := b.String()
	r := New(DarkStyles())
	d := r.md.doc("m", doc, true, 80)
	if len(d.pages) < PlainAfter/pageBytes || r.md.cache.bytes() > 64<<10 || len(d.head) > 10 {
		t.Fatalf("%d pages, %d head lines, %d bytes of glamour lines cached", len(d.pages), len(d.head), r.md.cache.bytes())
	}
	whole := r.Markdown("m", doc, true, 80)
	if !strings.Contains(stripLines(whole), "  x := compute(1, 2, 3) // a line of a long code block\n") {
		t.Fatal("the code lines are not shown as plain lines")
	}
	if streamed := streamMarkdown(New(DarkStyles()), "m", doc, 64<<10, 1, 80); strings.Join(streamed, "\n") != strings.Join(whole, "\n") {
		t.Fatal("streamed render differs from whole render")
	}
}

// TestMessageCacheIsBoundedByBytes fills the finished-message cache past
// maxMsgBytes: it evicts down to three quarters and keeps the newest.
func TestMessageCacheIsBoundedByBytes(t *testing.T) {
	r := New(DarkStyles())
	big := []string{strings.Repeat("x", 1<<20)}
	for i := range 40 {
		m := finishedMessage("m"+strings.Repeat("i", i), "short")
		r.RenderMessage(m, 80, ViewOpts{})
		e := r.msgs[m.ID]
		r.msgBytes += linesBytes(big) - e.bytes
		e.out.Lines, e.bytes = big, linesBytes(big)
		r.trimMsgs(m.ID)
		if r.msgBytes > maxMsgBytes {
			t.Fatalf("cache holds %d bytes", r.msgBytes)
		}
		if r.msgs[m.ID] == nil {
			t.Fatal("the newest message was evicted")
		}
	}
	sum := 0
	for _, e := range r.msgs {
		sum += e.bytes
	}
	if sum != r.msgBytes || len(r.msgs) >= 40 {
		t.Fatalf("%d entries of %d bytes, counted %d", len(r.msgs), sum, r.msgBytes)
	}
}

// TestOpenPlainBlockStreamsAsPages streams a 300 KB code fence that starts
// past PlainAfter: mid-way, its complete lines are pages (no drawn lines
// kept for the open block) and look as they will once it completes.
func TestOpenPlainBlockStreamsAsPages(t *testing.T) {
	var b strings.Builder
	for b.Len() < PlainAfter+100 {
		b.WriteString("a paragraph before the fence\n\n")
	}
	b.WriteString("```\n")
	for i := 0; b.Len() < PlainAfter+300_000; i++ {
		b.WriteString("code line of the open fence, streaming\n")
		if i%97 == 0 {
			b.WriteString("\n")
		}
	}
	b.WriteString("```\n\nafter the fence")
	doc := b.String()
	r := New(DarkStyles())
	whole := New(DarkStyles()).Markdown("m", doc, true, 70)
	for _, k := range []int{PlainAfter + 150_000 + 7, PlainAfter + 299_000} {
		got := r.Markdown("m", doc[:k], false, 70)
		st := r.md.states["m"]
		if len(st.open.reg.pages) < 5 || len(st.fence.lines) > 0 || len(st.seg.frozen) > 0 {
			t.Fatalf("at %d: %d open pages, %d fence lines, %d frozen lines", k, len(st.open.reg.pages), len(st.fence.lines), len(st.seg.frozen))
		}
		n := len(got) - 1 // the last line is incomplete
		if strings.Join(got[:n], "\n") != strings.Join(whole[:n], "\n") {
			for i := range n {
				if got[i] != whole[i] {
					t.Fatalf("at %d: line %d streams as %q, finished it is %q", k, i, got[i], whole[i])
				}
			}
		}
	}
	if got := r.Markdown("m", doc, true, 70); strings.Join(got, "\n") != strings.Join(whole, "\n") {
		t.Fatal("finished render differs from a whole render")
	}
}

// TestLongUserTextIsPaged renders a pasted 1 MB user message: it is paged,
// and the pages lay it out exactly as the whole text is laid out.
func TestLongUserTextIsPaged(t *testing.T) {
	var b strings.Builder
	b.WriteString("\n\nplease look at this log:\n")
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString("2026-11-23T22:00:00Z INFO request served in 12ms path=/api/v1/things?id=42 status=200\n")
		if i%300 == 0 {
			b.WriteString("\n\n\t\x1b[31mERROR\x1b[0m a much longer line " + strings.Repeat("with words ", 40) + "\n")
		}
	}
	b.WriteString("\n\n")
	text := b.String()
	s := reducer.ReduceAll(reducer.State{}, reducer.UserMessage{TurnID: "u", Text: text})
	r := New(DarkStyles())
	for _, width := range []int{100, 37} {
		// Expanded: folded, a long paste shows a few lines (userfold.go).
		msg := s.Messages[0]
		exp := map[BlockKey]bool{KeyOf(msg, msg.Blocks.At(0)): true}
		out := r.RenderMessage(msg, width, ViewOpts{Expanded: exp})
		pages := 0
		for _, sec := range out.Sections {
			if sec.Page != nil {
				pages++
			}
		}
		if pages < 50 {
			t.Fatalf("%d pages for a 1 MB user text", pages)
		}
		whole := textBlock(text, width, r.styles.User.Text, gutter)
		got := out.All()
		at := len(got) - len(whole)
		if at < 0 || strings.Join(got[at:], "\n") != strings.Join(whole, "\n") {
			for i := range min(len(whole), len(got)-max(at, 0)) {
				if got[max(at, 0)+i] != whole[i] {
					t.Fatalf("width %d: line %d is %q, laid out whole %q", width, i, got[max(at, 0)+i], whole[i])
				}
			}
			t.Fatalf("width %d: %d lines, whole %d", width, len(got), len(whole))
		}
	}
}

// TestLongUserTextIsFoldedUnlessExpanded: collapsed, a long paste is its
// first lines and "[pasted N lines]".
func TestLongUserTextIsFoldedUnlessExpanded(t *testing.T) {
	text := strings.Repeat("a line of the paste\n", 5000)
	s := reducer.ReduceAll(reducer.State{}, reducer.UserMessage{TurnID: "u", Text: text})
	out := New(DarkStyles()).RenderMessage(s.Messages[0], 80, ViewOpts{})
	all := strings.Join(out.All(), "\n")
	if len(out.All()) > 10 || !strings.Contains(all, "[pasted 5,000 lines]") {
		t.Fatalf("folded:\n%s", all)
	}
}
