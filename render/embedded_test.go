package render

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

func TestDecodeEmbedded(t *testing.T) {
	cases := []struct {
		in    string
		limit int
		want  string
		total int64
		ok    bool
	}{
		{b64("hello"), 100, "hello", 5, true},
		{base64.RawStdEncoding.EncodeToString([]byte("hello")), 100, "hello", 5, true}, // unpadded
		{"aGVs\nbG8=", 100, "hello", 5, true},                                          // wrapped
		{b64("abcdefghij"), 6, "abcdef", 10, true},                                     // prefix only
		{b64("ééé"), 4, "é", 6, true},                                                  // cut inside a rune: trimmed
		{"", 100, "", 0, true},
		{"not base64!", 100, "", 0, false},
		{"aGVsbG8=x", 100, "", 0, false},
		{"a", 100, "", 0, false},
	}
	for _, c := range cases {
		got, total, ok := decodeEmbedded(c.in, c.limit)
		if string(got) != c.want || total != c.total || ok != c.ok {
			t.Errorf("decodeEmbedded(%q, %d) = %q, %d, %v; want %q, %d, %v", c.in, c.limit, got, total, ok, c.want, c.total, c.ok)
		}
	}
}

func TestIsTextResource(t *testing.T) {
	cases := []struct {
		mime, data string
		want       bool
	}{
		{"text/plain", "hello", true},
		{"text/plain; charset=latin1", "caf\xe9", true}, // declared text: shown, bad bytes become U+FFFD
		{"TEXT/Markdown", "# x", true},
		{"application/json", `{"a":1}`, true},
		{"application/octet-stream", "plain words\n", true}, // a UTF-8 blob
		{"", "no type at all", true},
		{"application/octet-stream", "a\x00b", false},
		{"application/octet-stream", "\xff\xfe\x00", false},
		{"application/octet-stream", "\x01\x02\x03\x04abc", false}, // mostly controls
		{"image/svg+xml", "<svg/>", false},
		{"image/png", "PNG", false},
		{"audio/wav", "RIFF", false},
	}
	for _, c := range cases {
		if got := isTextResource(c.mime, []byte(c.data)); got != c.want {
			t.Errorf("isTextResource(%q, %q) = %v, want %v", c.mime, c.data, got, c.want)
		}
	}
}

func TestResourceName(t *testing.T) {
	emb := ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64("x"), ContentType: "text/plain"}
	tool := func(input string, content ...ahpwire.ToolResultContent) *ahpwire.ToolCallState {
		return &ahpwire.ToolCallState{ToolInput: &ahpwire.ToolInput{Text: input}, Content: content}
	}
	cases := []struct {
		tc   *ahpwire.ToolCallState
		want string
	}{
		{tool(`{"path":"src/main.go"}`, emb), "src/main.go"},
		{tool(`{"uri":"file:///a.txt","name":"ignored"}`, emb), "file:///a.txt"},
		{tool(`{"file_path":"x\u001b[2Jy"}`, emb), "xy"}, // sanitised
		{tool(`{"path":""}`, emb), ""},
		{tool(`{"path":42}`, emb), ""},
		{tool(`not json`, emb), ""},
		{tool(`{"path":"a"}`, emb, emb), ""}, // ambiguous: two resources
		{tool(`{"path":"a"}`), ""},
		{&ahpwire.ToolCallState{Content: []ahpwire.ToolResultContent{emb}}, ""},
	}
	for i, c := range cases {
		if got := resourceName(c.tc, ViewOpts{}); got != c.want {
			t.Errorf("case %d: resourceName = %q, want %q", i, got, c.want)
		}
	}
	ref := &ahpwire.ToolCallState{ToolInput: &ahpwire.ToolInput{Ref: &ahpwire.ContentRef{URI: "mem:/in"}}, Content: []ahpwire.ToolResultContent{emb}}
	if got := resourceName(ref, ViewOpts{}); got != "" {
		t.Errorf("unfetched input named %q", got)
	}
	if got := resourceName(ref, ViewOpts{Resources: map[string]string{"mem:/in": `{"path":"fetched.txt"}`}}); got != "fetched.txt" {
		t.Errorf("fetched input named %q", got)
	}
}

// embeddedLines renders one expanded read_file call with content c.
func embeddedLines(t *testing.T, c ahpwire.ToolResultContent, width int) []string {
	t.Helper()
	m := msgOf(apply(startState(), toolStart(readFileTool(`{"path":"big.log"}`, c)), endMsg(reducer.StatusComplete, 0)))
	out := New(DarkStyles()).RenderMessage(m, width, ViewOpts{Expanded: expand(m, 0)})
	checkRenderedInvariants(t, out, width)
	lines := make([]string, len(out.Lines))
	for i, l := range out.Lines {
		lines[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return lines
}

func TestEmbeddedCapped(t *testing.T) {
	// Many short lines within the decode limit: capped by lines.
	text := strings.Repeat("short line\n", 1000)
	ls := embeddedLines(t, ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(text), ContentType: "text/plain"}, 80)
	joined := strings.Join(ls, "\n")
	if n := strings.Count(joined, "short line"); n != maxHeadLines {
		t.Errorf("%d lines shown, want %d", n, maxHeadLines)
	}
	if !strings.Contains(joined, "Resource: big.log (text/plain, 10.7 KB)") || !strings.Contains(joined, "… 600 more lines") {
		t.Errorf("missing header or line note:\n%s", joined[len(joined)-300:])
	}
	// Long lines beyond the decode limit: one note with the bytes left.
	text = strings.Repeat(strings.Repeat("x", 999)+"\n", 600) // 600,000 bytes
	ls = embeddedLines(t, ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(text), ContentType: "text/plain"}, 80)
	joined = strings.Join(ls, "\n")
	if strings.Contains(joined, "more lines") || !strings.Contains(joined, "more not shown") {
		t.Errorf("want one byte note:\n%s", joined[len(joined)-300:])
	}
	if strings.Contains(joined, b64(text)[:40]) {
		t.Error("base64 payload shown")
	}
	if got := len(ls); got > maxHeadLines+12 {
		t.Errorf("%d lines for a capped resource", got)
	}
}

func TestFitRows(t *testing.T) {
	cases := []struct {
		text        string
		width, rows int
		want        string
		more        int
	}{
		{"a\nb\nc", 10, 5, "a\nb\nc", 0},
		{"a\nb\nc", 10, 2, "a\nb", 1},
		{"aaaaaaaaaaaa\nb\nc", 4, 3, "aaaaaaaaaaaa", 2}, // 3 rows for the first line
		{"aaaaaaaaaaaa\nb", 4, 2, "aaaaaaaa", 1},        // one huge line is cut
		{"a\n\nb", 10, 5, "a\n\nb", 0},                  // blank lines count as rows
	}
	for _, c := range cases {
		got, more := fitRows(c.text, c.width, c.rows)
		if got != c.want || more != c.more {
			t.Errorf("fitRows(%q, %d, %d) = %q, %d; want %q, %d", c.text, c.width, c.rows, got, more, c.want, c.more)
		}
	}
}

func TestDisplayURI(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 500)
	cases := []struct{ in, want string }{
		{"file:///work/main.go", "file:///work/main.go"},
		{"data:text/plain;charset=utf-8;base64," + b64("hello world!"), "data: URI (text/plain, 12 B)"},
		{"data:,a%20b", "data: URI (text/plain, 5 B)"},
		{"data:image/png;base64,AAAA", "data: URI (image/png, 3 B)"},
		{"file:///a\nb\x1b[2J", "file:///a b"},
	}
	for _, c := range cases {
		if got := displayURI(c.in); got != c.want {
			t.Errorf("displayURI(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := displayURI(long); ansi.StringWidth(got) != maxURIDisplay || !strings.Contains(got, "…") || !strings.HasPrefix(got, "https://example.com/") {
		t.Errorf("long URI shown as %q (%d columns)", got, ansi.StringWidth(got))
	}
}

// A binary file edit carried in data: URIs never prints its base64.
func TestDataURINeverShowsPayload(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString([]byte("\x89PNG\x00\x01\x02 binary"))
	uri := "data:image/png;base64," + payload
	tc := completedTool(true, editContent(&ahpwire.FileEdit{After: &ahpwire.FileEditSide{URI: "file:///logo.png", Content: ahpwire.ContentRef{URI: uri}}}),
		ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: uri})
	m := msgOf(apply(startState(), toolStart(tc), endMsg(reducer.StatusComplete, 0)))
	out := New(DarkStyles()).RenderMessage(m, 80, ViewOpts{Expanded: expand(m, 0)}).String()
	if strings.Contains(out, payload[:12]) {
		t.Errorf("base64 payload in the transcript:\n%s", ansi.Strip(out))
	}
	if !strings.Contains(ansi.Strip(out), "data: URI (image/png, 14 B)") {
		t.Errorf("data: URI not described:\n%s", ansi.Strip(out))
	}
}

func TestPromptHintsFromCaller(t *testing.T) {
	pc := baseTool(ahpwire.ToolPendingConfirmation)
	m := msgOf(apply(startState(), toolStart(pc)))
	r := New(DarkStyles())
	now := t0.Add(time.Second)
	def := ansi.Strip(r.RenderMessage(m, 80, ViewOpts{Now: now}).String())
	if !strings.Contains(def, "a approve · d deny · r deny with reason") || strings.Contains(def, "[y]") {
		t.Errorf("default hints:\n%s", def)
	}
	custom := PromptHints{Confirm: []KeyHint{{"ctrl+y", "ok", HintApprove}, {"\x1b[2Jq", "nope\x07", HintDeny}}}
	got := ansi.Strip(r.RenderMessage(m, 80, ViewOpts{Now: now, Hints: custom}).String())
	if !strings.Contains(got, "ctrl+y ok · q nope␇") || strings.Contains(got, "a approve") {
		t.Errorf("caller hints not used (or not sanitised):\n%s", got)
	}
	// Result review: the review hints.
	pr := completedTool(true)
	pr.Status = ahpwire.ToolPendingResultConfirmation
	m2 := msgOf(apply(startState(), toolStart(pr)))
	if s := ansi.Strip(r.RenderMessage(m2, 80, ViewOpts{Now: now}).String()); !strings.Contains(s, "a accept · d reject") {
		t.Errorf("default review hints:\n%s", s)
	}
	review := PromptHints{Review: []KeyHint{{"K", "keep", HintApprove}}}
	if s := ansi.Strip(r.RenderMessage(m2, 80, ViewOpts{Now: now, Hints: review}).String()); !strings.Contains(s, "Review the result") || !strings.Contains(s, "K keep") || strings.Contains(s, "a accept") {
		t.Errorf("caller review hints not used:\n%s", s)
	}
	// Narrow: one hint per line, each within the width.
	out := r.RenderMessage(m, 24, ViewOpts{Now: now})
	checkRenderedInvariants(t, out, 24)
	if s := ansi.Strip(out.String()); !strings.Contains(s, "    a approve\n    d deny\n") {
		t.Errorf("narrow hints:\n%s", s)
	}
}

func TestThinkingEndsWhenAgentMovesOn(t *testing.T) {
	r := New(DarkStyles())
	open := apply(startState(), thinkStart("r1", "hmm", false))
	head := func(s reducer.State, now time.Time) string {
		return ansi.Strip(r.RenderMessage(msgOf(s), 80, ViewOpts{Now: now}).Lines[0])
	}
	if h := head(open, t0.Add(2*time.Second)); !strings.Contains(h, "Thinking… 2s") {
		t.Fatalf("live header %q", h)
	}
	moved := apply(open, toolStart(baseTool(ahpwire.ToolRunning)))
	if msgOf(moved).Blocks.At(0).Open != true {
		t.Fatal("fixture: the reducer closed the reasoning block; this test is moot")
	}
	if h := head(moved, t0.Add(5*time.Second)); !strings.Contains(h, "Thought for 5s") {
		t.Errorf("after the agent moved on: %q", h)
	}
	// Time passes, the duration stays.
	if h := head(moved, t0.Add(50*time.Second)); !strings.Contains(h, "Thought for 5s") {
		t.Errorf("later: %q", h)
	}
}

func TestFirstBlockBackdatedToTurnStart(t *testing.T) {
	open := apply(startState(), thinkStart("r1", "hmm", false))
	r := New(DarkStyles())
	// First seen 30 s into the turn (a reconnect): counts from StartedAt.
	h := ansi.Strip(r.RenderMessage(msgOf(open), 80, ViewOpts{Now: t0.Add(30 * time.Second)}).Lines[0])
	if !strings.Contains(h, "Thinking… 30s") {
		t.Errorf("header %q", h)
	}
	// A second block is not backdated.
	two := apply(open, textStart("m1", "a"), thinkStart("r2", "more", false))
	r2 := New(DarkStyles())
	out := r2.RenderMessage(msgOf(two), 80, ViewOpts{Now: t0.Add(30 * time.Second)})
	last := ansi.Strip(out.Lines[out.Spans[2].Start])
	if !strings.Contains(last, "Thinking… 0s") {
		t.Errorf("second thinking block %q", last)
	}
	// A StartedAt in the future of Now (clock skew) is ignored.
	r3 := New(DarkStyles())
	h = ansi.Strip(r3.RenderMessage(msgOf(open), 80, ViewOpts{Now: t0.Add(-time.Minute)}).Lines[0])
	if !strings.Contains(h, "Thinking… 0s") {
		t.Errorf("skewed header %q", h)
	}
	// History: never seen live, no duration and nothing dangling.
	done := apply(open, endMsg(reducer.StatusComplete, 9*time.Second))
	h = ansi.Strip(New(DarkStyles()).RenderMessage(msgOf(done), 80, ViewOpts{Now: t0.Add(time.Hour)}).Lines[0])
	if strings.TrimSpace(h) != thinkingIcon+" Thought" {
		t.Errorf("history header %q", h)
	}
}

// FuzzToolContent renders an expanded tool call whose result holds an
// embedded resource (arbitrary payload and type, raw and base64-encoded),
// a resource link and a sub-agent link with arbitrary text, and checks
// that no untrusted escape reaches the output and that lines fit the
// width.
func FuzzToolContent(f *testing.F) {
	for _, s := range []string{"hello", "\x1b[2J\x9b31m", "data:text/plain;base64,aGk=", "\x89PNG\x00", "é\tx\r\ny"} {
		f.Add(s, "text/plain", uint8(20))
	}
	f.Fuzz(func(t *testing.T, data, mime string, w uint8) {
		width := MinWidth + int(w)%100
		tc := completedTool(true,
			ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(data), ContentType: mime},
			ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: data, ContentType: mime},
			ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: data, ContentType: mime},
			ahpwire.ToolResultContent{Type: ahpwire.ContentSubagent, Resource: data, Title: mime, AgentName: data})
		tc.ToolInput = &ahpwire.ToolInput{Text: `{"path":` + strconv.Quote(data) + `}`}
		m := msgOf(apply(startState(), toolStart(tc), endMsg(reducer.StatusComplete, 0)))
		out := New(DarkStyles()).RenderMessage(m, width, ViewOpts{Expanded: expand(m, 0)})
		checkRenderedInvariants(t, out, width)
	})
}

// BenchmarkEmbeddedResource renders an expanded read_file call holding a
// 1 MB embedded text resource (fresh Renderer: no cache hit).
func BenchmarkEmbeddedResource(b *testing.B) {
	text := strings.Repeat("a line of a large embedded log file, with some words\tand a tab\n", 16000)
	tc := readFileTool(`{"path":"big.log"}`, ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(text), ContentType: "text/plain"})
	m := msgOf(apply(startState(), toolStart(tc), endMsg(reducer.StatusComplete, 0)))
	v := ViewOpts{Expanded: expand(m, 0)}
	b.ReportAllocs()
	for b.Loop() {
		New(DarkStyles()).RenderMessage(m, 100, v)
	}
}

// TestThoughtUnderASecondReadsBriefly: "Thought for 0s" reads as if the
// timer were broken; under a second the header says "Thought briefly".
func TestThoughtUnderASecondReadsBriefly(t *testing.T) {
	r := New(DarkStyles())
	open := apply(startState(), thinkStart("r1", "hmm", false))
	r.RenderMessage(msgOf(open), 80, ViewOpts{Now: t0.Add(100 * time.Millisecond)})
	moved := apply(open, toolStart(baseTool(ahpwire.ToolRunning)))
	h := ansi.Strip(r.RenderMessage(msgOf(moved), 80, ViewOpts{Now: t0.Add(400 * time.Millisecond)}).Lines[0])
	if !strings.Contains(h, "Thought briefly") || strings.Contains(h, "0s") {
		t.Fatalf("header %q, want \"Thought briefly\"", h)
	}
}
