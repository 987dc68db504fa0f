package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

// scriptedTerminal returns a live terminal that ran a build with a `\r`
// progress bar and a failing test, with command detection when detect.
func scriptedTerminal(pty, detect bool) *LiveTerminal {
	st := ahpwire.TerminalState{Title: "bash", Cols: ahpwire.Ptr[int64](60), Rows: ahpwire.Ptr[int64](10)}
	lt := NewLiveTerminal(st, pty)
	step := func(a ahpwire.Action) {
		switch a := a.(type) {
		case *ahpwire.TerminalData:
			feed(lt, a.Data)
			return
		case *ahpwire.TerminalCommandExecuted:
			s := lt.State()
			s.Content = append(append([]ahpwire.TerminalContentPart(nil), s.Content...), ahpwire.TerminalContentPart{
				Type: ahpwire.TerminalPartCommand, CommandID: a.CommandID, CommandLine: a.CommandLine, Timestamp: a.Timestamp})
			s.SupportsCommandDetection = ahpwire.Ptr(true)
			lt.Apply(s, a)
		case *ahpwire.TerminalCommandFinished:
			s := lt.State()
			s.Content = append([]ahpwire.TerminalContentPart(nil), s.Content...)
			for i := range s.Content {
				if s.Content[i].CommandID == a.CommandID {
					s.Content[i].IsComplete, s.Content[i].ExitCode, s.Content[i].DurationMs = true, a.ExitCode, a.DurationMs
				}
			}
			lt.Apply(s, a)
		case *ahpwire.TerminalExited:
			s := lt.State()
			s.ExitCode = a.ExitCode
			lt.Apply(s, a)
		}
	}
	red, green, reset := "\x1b[31m", "\x1b[32m", "\x1b[0m"
	if !pty {
		red, green, reset = "", "", ""
	}
	step(&ahpwire.TerminalData{Data: "$ ./build.sh\r\n"})
	if detect {
		step(&ahpwire.TerminalCommandExecuted{CommandID: "c1", CommandLine: "./build.sh", Timestamp: 1})
	}
	for i := 0; i <= 4; i++ {
		step(&ahpwire.TerminalData{Data: fmt.Sprintf("\r[%-4s] %d%%", strings.Repeat("#", i), i*25)})
	}
	step(&ahpwire.TerminalData{Data: "\r\n" + green + "build ok" + reset + "\r\n"})
	if detect {
		step(&ahpwire.TerminalCommandFinished{CommandID: "c1", ExitCode: ahpwire.Ptr[int64](0), DurationMs: ahpwire.Ptr[int64](1500)})
	}
	step(&ahpwire.TerminalData{Data: "$ go test ./...\r\n"})
	if detect {
		step(&ahpwire.TerminalCommandExecuted{CommandID: "c2", CommandLine: "go test ./...", Timestamp: 2})
	}
	for i := 1; i <= 30; i++ {
		step(&ahpwire.TerminalData{Data: fmt.Sprintf("=== RUN   Test%d\r\n", i)})
	}
	step(&ahpwire.TerminalData{Data: red + "--- FAIL" + reset + ": TestDiff (0.00s)\r\n" + red + "FAIL" + reset + "\r\n"})
	if detect {
		step(&ahpwire.TerminalCommandFinished{CommandID: "c2", ExitCode: ahpwire.Ptr[int64](1), DurationMs: ahpwire.Ptr[int64](2250)})
	}
	step(&ahpwire.TerminalExited{ExitCode: ahpwire.Ptr[int64](1)})
	return lt
}

func termGoldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, m *reducer.Message, v ViewOpts) {
		cs = append(cs, goldenCase{name: name, msg: m, view: v})
	}
	now := t0.Add(3 * time.Second)
	run := baseTool(ahpwire.ToolRunning)
	run.Confirmed = ahpwire.ConfirmedNotNeeded
	run.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: "ahp-terminal:/t1", Title: "bash", IsPty: ahpwire.Ptr(true)}}
	rs := msgOf(apply(startState(), toolStart(run)))
	live := map[string]*LiveTerminal{"ahp-terminal:/t1": scriptedTerminal(true, true)}
	add("term_live_collapsed", rs, ViewOpts{Now: now, Terminals: live})
	add("term_live_expanded", rs, ViewOpts{Now: now, Terminals: live, Expanded: expand(rs, 0)})
	add("term_live_scrolled", rs, ViewOpts{Now: now, Terminals: live, Expanded: expand(rs, 0), TermScroll: map[string]int{"ahp-terminal:/t1": 3}})
	plain := map[string]*LiveTerminal{"ahp-terminal:/t1": scriptedTerminal(false, false)}
	add("term_plain_collapsed", rs, ViewOpts{Now: now, Terminals: plain})

	// Content references by content type.
	ref := func(uri, ct string, size int64) *reducer.Message {
		return msgOf(apply(startState(), reducer.BlockStart{MessageID: mid, Kind: reducer.KindContentRef,
			Ref: &ahpwire.ContentRef{URI: uri, ContentType: ct, SizeHint: &size}}, endMsg(reducer.StatusComplete, 0)))
	}
	res := map[string]string{
		"ahp-content:/md":   "## Report\n\nAll **green** except `TestDiff`.\n",
		"ahp-content:/txt":  "line one\n\tindented\nline three\n",
		"ahp-content:/diff": "--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n package x\n-var a = 1\n+var a = 2\n",
	}
	add("ref_markdown", ref("ahp-content:/md", "text/markdown", 40), ViewOpts{Resources: res})
	add("ref_text", ref("ahp-content:/txt", "text/plain", 30), ViewOpts{Resources: res})
	add("ref_diff", ref("ahp-content:/diff", "text/x-diff", 60), ViewOpts{Resources: res})
	add("ref_image", ref("ahp-content:/img", "image/png", 12345), ViewOpts{})
	add("ref_loading", ref("ahp-content:/txt2", "text/plain", 3<<20), ViewOpts{Loading: map[string]string{"ahp-content:/txt2": "loading 3.0 MB"}})

	// A file edit whose sides are fetched, with a line longer than the
	// narrowest width (wrapping keeps the gutter).
	long := strings.Repeat("wrapped ", 12)
	fe := completedTool(true, editContent(&ahpwire.FileEdit{
		Before: &ahpwire.FileEditSide{URI: "file:///w/a.go", Content: ahpwire.ContentRef{URI: "mem:/b"}},
		After:  &ahpwire.FileEditSide{URI: "file:///w/a.go", Content: ahpwire.ContentRef{URI: "mem:/a"}},
		Diff:   &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr[int64](2), Removed: ahpwire.Ptr[int64](1)}}))
	fm := msgOf(apply(startState(), toolStart(fe)))
	add("fileedit_diff", fm, ViewOpts{Now: now, Expanded: expand(fm, 0), Resources: map[string]string{
		"mem:/b": "package a\n\nvar x = 1\n", "mem:/a": "package a\n\nvar x = 2 // " + long + "\nvar y = 3\n"}})
	add("fileedit_loading", fm, ViewOpts{Now: now, Expanded: expand(fm, 0), Loading: map[string]string{"mem:/b": "loading 1.0 KB", "mem:/a": "loading 1.0 KB"}})
	// A resource tool result, fetched: shown by its content type.
	rt := completedTool(true, ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: "ahp-content:/report",
		ContentType: "text/markdown", SizeHint: ahpwire.Ptr[int64](60)})
	rm := msgOf(apply(startState(), toolStart(rt)))
	add("tool_resource_loaded", rm, ViewOpts{Now: now, Expanded: expand(rm, 0),
		Resources: map[string]string{"ahp-content:/report": "## Test report\n\n- 3 passed\n- **1 failed**: `TestDiff`\n"}})
	add("tool_resource_loading", rm, ViewOpts{Now: now, Expanded: expand(rm, 0), Loading: map[string]string{"ahp-content:/report": "loading 60 B"}})
	return cs
}

func TestRefSizesAndNeeded(t *testing.T) {
	rt := completedTool(true, ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: "ahp-content:/r", ContentType: "text/plain", SizeHint: ahpwire.Ptr[int64](7)},
		ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: "ahp-content:/img", ContentType: "image/png", SizeHint: ahpwire.Ptr[int64](9)})
	m := msgOf(apply(startState(), toolStart(rt)))
	if got := RefSizes(m); got["ahp-content:/r"] != 7 || got["ahp-content:/img"] != 9 {
		t.Fatalf("sizes %v", got)
	}
	need := NeededResources(m, ViewOpts{Expanded: expand(m, 0)})
	if len(need) != 1 || need[0] != "ahp-content:/r" {
		t.Fatalf("needed %v (images are not fetched)", need)
	}
}

// TestGoldenTerminalsAndRefs renders live terminals, content references
// and file-edit diffs at widths 40, 80 and 120 (plain) and 80 (ANSI).
func TestGoldenTerminalsAndRefs(t *testing.T) {
	for _, c := range termGoldenCases() {
		t.Run(c.name, func(t *testing.T) {
			checkPlainGoldens(t, "term/", c)
			out := renderCase(c, DarkStyles(), 80)
			testkit.Golden(t, "term/ansi/"+c.name+"_dark", out.String()+"\n")
		})
	}
}

func TestLiveTerminalCacheFollowsRevision(t *testing.T) {
	run := baseTool(ahpwire.ToolRunning)
	run.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: "ahp-terminal:/t1", IsPty: ahpwire.Ptr(true)}}
	m := msgOf(apply(startState(), toolStart(run)))
	lt := NewLiveTerminal(ahpwire.TerminalState{Title: "sh"}, true)
	r := New(DarkStyles())
	v := ViewOpts{Now: t0, Terminals: map[string]*LiveTerminal{"ahp-terminal:/t1": lt}}
	first := r.RenderMessage(m, 80, v).String()
	feed(lt, "fresh output\r\n")
	second := r.RenderMessage(m, 80, v).String()
	if first == second || !strings.Contains(ansi.Strip(second), "fresh output") {
		t.Fatalf("new output not drawn:\n%s", ansi.Strip(second))
	}
}
