package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
)

// numbered matches a /demo big line as the plain layout shows it: gutter,
// seven-digit line counter, filler.
var numbered = regexp.MustCompile(`^  (\d{7}) `)

// markedRow is such a line of the focused block (the focus mark in the
// gutter).
var markedRow = regexp.MustCompile(`^▌ \d{7} `)

// bigSource finds the source line of /demo big text numbered n.
func bigSource(t *testing.T, text string, n int) string {
	t.Helper()
	key := fmt.Sprintf("\n%07d ", n)
	i := strings.Index(text, key)
	if i < 0 {
		t.Fatalf("line %d is not in the text", n)
	}
	line := text[i+1:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return line
}

// checkBigWindow checks that every numbered line on screen is its source
// line (wrapped: the screen rows of one source line joined give it back)
// and that they come in order without gaps; it returns the first and last
// numbers shown (0, 0 when none).
func checkBigWindow(t *testing.T, m Model, text string) (first, last int) {
	t.Helper()
	rows := strings.Split(viewText(m), "\n")
	prev := 0
	for i := 0; i < len(rows); i++ {
		sm := numbered.FindStringSubmatch(rows[i])
		if sm == nil {
			continue
		}
		n, _ := strconv.Atoi(sm[1])
		if strings.Index(text, fmt.Sprintf("\n%07d ", n)) < render.PlainAfter+4096 {
			continue // glamour's part: paragraphs reflowed
		}
		got := strings.TrimRight(rows[i][2:], " ")
		want := bigSource(t, text, n)
		// Wrapped continuation rows (not numbered, not blank) belong to it.
		for i+1 < len(rows) && numbered.FindStringSubmatch(rows[i+1]) == nil && strings.TrimSpace(rows[i+1]) != "" &&
			strings.HasPrefix(rows[i+1], "  ") && len(got) < len(want) {
			i++
			got += " " + strings.TrimSpace(rows[i])
		}
		if strings.HasPrefix(want, got) && !numberedAfter(rows[i+1:]) {
			got = want // the window may end inside the last line
		}
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
			t.Fatalf("row for line %d shows %q, the source says %q:\n%s", n, got, want, viewText(m))
		}
		if prev != 0 && n != prev+1 && !(n == prev+2 && (prev+1)%21 == 0) {
			t.Fatalf("line %d follows line %d on screen", n, prev)
		}
		if first == 0 {
			first = n
		}
		prev, last = n, n
	}
	return first, last
}

func numberedAfter(rows []string) bool {
	for _, r := range rows {
		if numbered.MatchString(r) {
			return true
		}
	}
	return false
}

// TestHugeReplyLaysOutOnlyTheWindow opens a chat holding an 8 MB reply
// and scrolls it: every screen shows the right source lines, the top is
// still markdown, and the renderer lays out only a few pages per move and
// keeps a bounded page cache.
func TestHugeReplyLaysOutOnlyTheWindow(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	const size = 8_000_000
	text := demo.BigReply(size)
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "/demo big 8000000", text)}, nil))
	r := m.c.Renderer
	layouts := func() int { return r.PageLayouts() }
	steps := []struct {
		keys  []string
		want  string
		plain bool // the window is past PlainAfter: numbered lines are checked
	}{
		{nil, fmt.Sprintf("end of %d", size), true},
		{[]string{"tab", "home"}, "/demo big 8000000", false},
		{[]string{"pgdown", "pgdown"}, "", false},
		{[]string{"end"}, fmt.Sprintf("end of %d", size), true},
		{[]string{"pgup", "pgup", "pgup"}, "", true},
		{[]string{"pgdown"}, "", true},
	}
	for _, st := range steps {
		before := layouts()
		for _, k := range st.keys {
			m = send(t, m, keyPress(k))
		}
		v := viewText(m)
		if st.want != "" && !strings.Contains(v, st.want) {
			t.Fatalf("after %v the screen lacks %q:\n%s", st.keys, st.want, v)
		}
		if first, _ := checkBigWindow(t, m, text); st.plain && first == 0 {
			t.Fatalf("after %v no line of the text is on screen:\n%s", st.keys, v)
		}
		if n := layouts() - before; n > 4*len(st.keys)+4 {
			t.Fatalf("%v laid out %d pages", st.keys, n)
		}
	}
	// The top is glamour's: the heading has no "#" left.
	m = send(t, m, keyPress("home"))
	if v := viewText(m); strings.Contains(v, "# /demo big") || !strings.Contains(v, "/demo big 8000000") {
		t.Fatalf("the start of the reply is not rendered as markdown:\n%s", v)
	}
	// PgDn then PgUp comes back to the same screen, also in the plain part.
	m = send(t, m, keyPress("end"))
	for range 3 {
		m = send(t, m, keyPress("pgup"))
	}
	at := viewText(m)
	m = send(t, m, keyPress("pgdown"))
	m = send(t, m, keyPress("pgup"))
	if viewText(m) != at {
		t.Fatalf("pgdown, pgup did not come back:\n%s\n---\n%s", at, viewText(m))
	}
	// The mouse wheel scrolls through the pages as the keys do.
	m = send(t, m, keyPress("end"))
	for range 7 {
		m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	}
	if first, _ := checkBigWindow(t, m, text); first == 0 || strings.Contains(viewText(m), fmt.Sprintf("end of %d", size)) {
		t.Fatalf("the wheel did not scroll up through the text:\n%s", viewText(m))
	}
	// Focus the reply and copy it: its start, capped at clipboardMax
	// (app/clipboard.go), and its pages show the focus mark once the window is
	// back at the end.
	m = send(t, m, keyPress("["))
	if got := copied(t, m, "y"); len(got) > app.ClipboardMax || len(got) < app.ClipboardMax-8 || !strings.HasPrefix(text, got) {
		t.Fatalf("y copied %d bytes, the reply has %d (cap %d)", len(got), len(text), app.ClipboardMax)
	}
	m = send(t, m, keyPress("end"))
	rows := strings.Split(viewText(m), "\n")
	marked := 0
	for _, row := range rows {
		if markedRow.MatchString(row) {
			marked++
		}
	}
	if marked < 10 {
		t.Fatalf("the focused reply's pages are not marked:\n%s", viewText(m))
	}
	// What stays laid out: the glamour part (the first 256 KiB) in the
	// transcript and the block cache, and the pages in the page cache.
	if held, cached := m.chat.Transcript.Held, r.CacheBytes(); held > 1<<20 || cached > 1<<20 {
		t.Fatalf("the transcript holds %d bytes of lines, the block cache %d", held, cached)
	}
	if n := r.PageCacheBytes(); n > render.DefaultPageCacheBytes {
		t.Fatalf("page cache holds %d bytes (> %d)", n, render.DefaultPageCacheBytes)
	}
	if n := layouts(); n > 64 {
		t.Fatalf("%d pages laid out in all (of ~%d)", n, size/(16<<10))
	}
}

// TestHugeReplySearchAndResize jumps to a match in the middle of a 2 MB
// reply, then narrows and widens the terminal: each screen shows the
// right lines and a resize lays out only what is shown.
func TestHugeReplySearchAndResize(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	// 2 MB (25,000 lines, ~125 pages past PlainAfter) has the same layout
	// rules as 8 MB (TestHugeReplyLaysOutOnlyTheWindow keeps that size);
	// most of the cost was the snapshot's JSON, 17 s under -race.
	const size, target = 2_000_000, 12500
	text := demo.BigReply(size)
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", fmt.Sprintf("/demo big %d", size), text)}, nil))
	r := m.c.Renderer
	m = send(t, m, keyPress("ctrl+f"))
	m = typeText(t, m, fmt.Sprintf("%07d ", target))
	m = send(t, m, keyPress("esc"))
	first, last := checkBigWindow(t, m, text)
	if first > target || last < target {
		t.Fatalf("search for line %d shows lines %d..%d", target, first, last)
	}
	for _, sz := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 50, Height: 30}, {Width: 120, Height: 40}} {
		before := r.PageLayouts()
		m = send(t, m, sz)
		if n := r.PageLayouts() - before; n > 4 {
			t.Fatalf("resize to %dx%d laid out %d pages", sz.Width, sz.Height, n)
		}
		if f, _ := checkBigWindow(t, m, text); f == 0 || f > target+2 || f < target-5 {
			t.Fatalf("after resize to %dx%d the window moved away (first line %d):\n%s", sz.Width, sz.Height, f, viewText(m))
		}
	}
	// End follows the tail again.
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("end"))
	if _, last := checkBigWindow(t, m, text); !strings.Contains(viewText(m), fmt.Sprintf("end of %d", size)) || last == 0 {
		t.Fatalf("end does not show the tail:\n%s", viewText(m))
	}
}

// TestHugeReplyLineNear finds a match that occurs on nearly every line of
// a 2 MB reply from its estimated place: the line found is the one near
// the estimate (not the first occurrence), and only a few pages are laid
// out to find it.
func TestHugeReplyLineNear(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	// 2 MB (25,000 lines) instead of 8 MB, as in
	// TestHugeReplySearchAndResize: the same places are probed (in the
	// glamour part, just past PlainAfter, the middle and the end).
	text := demo.BigReply(2_000_000)
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "/demo big 2000000", text)}, nil))
	item := len(m.chat.Transcript.Items) - 1
	for _, want := range []int{20, 2000, 4000, 12500, 24500} {
		off := strings.Index(text, fmt.Sprintf("\n%07d ", want))
		before := m.c.Renderer.PageLayouts()
		sec, line := m.chat.Transcript.LineNear(item, "lazy dog", float64(off)/float64(len(text)))
		row := ansi.Strip(m.chat.Transcript.SecLines(item, sec)[line])
		if !strings.Contains(row, "lazy dog") {
			t.Fatalf("line %d of section %d does not show the match: %q", line, sec, row)
		}
		if off < render.PlainAfter {
			continue // glamour's part: paragraphs reflowed, no numbers to compare
		}
		sm := numbered.FindStringSubmatch(row)
		if sm == nil {
			// A wrapped row: the number is on the row above.
			sm = numbered.FindStringSubmatch(ansi.Strip(m.chat.Transcript.SecLines(item, sec)[line-1]))
		}
		if sm == nil {
			t.Fatalf("match near line %d found on an unnumbered row %q", want, row)
		}
		got, _ := strconv.Atoi(sm[1])
		if got < want-130 || got > want+130 {
			t.Fatalf("match near line %d found at line %d", want, got)
		}
		if n := m.c.Renderer.PageLayouts() - before; n > 4 {
			t.Fatalf("finding it laid out %d pages", n)
		}
	}
}
