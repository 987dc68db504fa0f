package render

import (
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// Golden fixtures for the one-line pill and its neighbours: inline
// markdown in StringOrMarkdown fields (and a plain string that keeps its
// backticks), execution time that leaves out the approval wait, and long
// diff and terminal lines that wrap with a continuation mark.

func pillGoldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, m *reducer.Message, v ViewOpts, prep func(*Renderer, int)) {
		cs = append(cs, goldenCase{name: name, msg: m, view: v, prep: prep})
	}

	// Inline markdown: code, strong, emphasis, a link, an escape, and
	// snake_case that is not emphasis; long enough to be cut at 40 and 80.
	md := baseTool(ahpwire.ToolRunning)
	md.InvocationMessage = rich("Search **all** files for `func main` in *[the repo](https://example.com/r)* \\*not italic\\* snake_case_name and more words to fill")
	mds := apply(startState(), toolStart(md))
	add("pill_inline_markdown", msgOf(mds), ViewOpts{}, nil)

	// A plain (non-markdown) message is literal: its backticks stay.
	pl := completedTool(true)
	pl.PastTenseMessage = ahpwire.PlainPtr("Ran `ls` (*plain*)")
	add("pill_plain_literal", msgOf(apply(startState(), toolStart(pl))), ViewOpts{}, nil)

	// A markdown confirmation title and risk reason.
	ct := baseTool(ahpwire.ToolPendingConfirmation)
	ct.ConfirmationTitle = rich("Run `rm -rf /tmp/cache` in **/work**?")
	ct.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Reason: rich("Deletes the `cache` directory *recursively*."), Safety: f64(0.3)}
	add("confirm_markdown_title", msgOf(apply(startState(), toolStart(ct))), ViewOpts{Now: t0.Add(3 * time.Second)}, nil)

	// Approved after 20 s of waiting, ran for 1.5 s: the pill says 1.5s.
	wait := baseTool(ahpwire.ToolPendingConfirmation)
	ws := apply(startState(), toolStart(wait))
	ran := baseTool(ahpwire.ToolRunning)
	ran.Confirmed = ahpwire.ConfirmedUserAction
	rs := apply(startState(), toolStart(ran))
	done := completedTool(true)
	ds := apply(startState(), toolStart(done))
	seeWaitRun := func(r *Renderer, w int) {
		r.RenderMessage(msgOf(ws), w, ViewOpts{Now: t0})
		r.RenderMessage(msgOf(ws), w, ViewOpts{Now: t0.Add(10 * time.Second)})
		r.RenderMessage(msgOf(rs), w, ViewOpts{Now: t0.Add(20 * time.Second)})
	}
	add("pill_running_after_approval", msgOf(rs), ViewOpts{Now: t0.Add(22 * time.Second)}, seeWaitRun)
	add("pill_completed_after_approval", msgOf(ds), ViewOpts{Now: t0.Add(21500 * time.Millisecond)}, seeWaitRun)
	// Approved, but never seen running (done between two frames): no
	// duration rather than one that counts the wait.
	add("pill_completed_unseen_run", msgOf(ds), ViewOpts{Now: t0.Add(21 * time.Second)},
		func(r *Renderer, w int) { r.RenderMessage(msgOf(ws), w, ViewOpts{Now: t0}) })

	// Long lines: a diff and terminal output wrap at spaces and mark
	// continuation rows; a token longer than the row is cut at the column.
	before := "func main() {\n\tlog.Printf(\"starting %s on %s with %d workers\", name, addr, n)\n}\n"
	after := "func main() {\n\tlog.Printf(\"starting %s on %s with %d workers and a much longer message\", name, addr, workers)\n\tx := \"" + strings.Repeat("abcdefghij", 9) + "\"\n}\n"
	res := map[string]string{"mem:/b": before, "mem:/a": after}
	long := completedTool(true,
		editContent(&ahpwire.FileEdit{
			Before: &ahpwire.FileEditSide{URI: "file:///work/main.go", Content: ahpwire.ContentRef{URI: "mem:/b"}},
			After:  &ahpwire.FileEditSide{URI: "file:///work/main.go", Content: ahpwire.ContentRef{URI: "mem:/a"}},
			Diff:   &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr[int64](2), Removed: ahpwire.Ptr[int64](1)}}),
		terminalContent("", "go vet ./...", ahpwire.TerminalCommandResult{
			Preview: "./main.go:12:2: printf: log.Printf format %d has arg workers of wrong type string\n", ExitCode: intp(1)}))
	lm := msgOf(apply(startState(), toolStart(long)))
	add("diff_long_lines", lm, ViewOpts{Expanded: expand(lm, 0), Resources: res}, nil)
	return cs
}
