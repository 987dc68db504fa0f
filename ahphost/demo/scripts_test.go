package demo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// projectDir is a small fake project for the scripts to look at.
func projectDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"README.md":        "# Widget\n\nA tiny widget service.\n\nSee docs/ for more.\n",
		"go.mod":           "module example.com/widget\n\ngo 1.26\n",
		"main.go":          "package main\n\nfunc main() {}\n",
		"internal/util.go": "package internal\n",
		".gitignore":       "bin/\n",
	}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPlainMessage(t *testing.T) {
	dir := projectDir(t)
	prompt := "How do I add retries to the HTTP client?"
	rec, err := runTurn(t, testAgent(dir), "t1", prompt, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	as := rec.actions
	checkSequence(t, "t1", as, nil)

	first, ok := as[0].(*ahpwire.ChatResponsePart)
	if !ok || first.Part.Kind != ahpwire.PartReasoning {
		t.Fatalf("first action is %s, want a reasoning part", as[0].ActionType())
	}
	reasoning := reasoningText(as)
	if n := strings.Count(reasoning, ". "); n < 3 || count(as, ahpwire.ActionChatReasoning) < 10 {
		t.Errorf("reasoning has %d sentences in %d deltas: %q", n, count(as, ahpwire.ActionChatReasoning), reasoning)
	}
	firstTool := slices.IndexFunc(as, func(a ahpwire.Action) bool { return a.ActionType() == ahpwire.ActionChatToolCallStart })
	lastReasoning := -1
	for i, a := range as {
		if a.ActionType() == ahpwire.ActionChatReasoning {
			lastReasoning = i
		}
	}
	if firstTool < lastReasoning {
		t.Errorf("tool call starts (%d) before reasoning ends (%d)", firstTool, lastReasoning)
	}

	md := markdownText(as)
	for _, want := range []string{"> " + prompt, "```", "\n1. ", "\n2. ", "| Entry | Kind | Size |", "| README.md | file | 54 bytes |", "addRetriesHttp"} {
		if !strings.Contains(md, want) {
			t.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
	if !hasFenceWithLang(md) {
		t.Errorf("answer has no fenced code block with a language:\n%s", md)
	}

	// Exactly one real list_files call, run without confirmation.
	if count(as, ahpwire.ActionChatToolCallStart) != 1 || count(as, ahpwire.ActionChatToolCallDelta) < 1 {
		t.Fatalf("want one streamed tool call:\n%s", dump(as))
	}
	ready := find[*ahpwire.ChatToolCallReady](as)
	if ready.Confirmed != ahpwire.ConfirmedNotNeeded || ready.ToolInput == nil || ready.ToolInput.Text != `{"path":"."}` {
		t.Errorf("list_files ready = %+v", ready)
	}
	done := find[*ahpwire.ChatToolCallComplete](as)
	if !done.Result.Success || len(done.Result.Content) != 1 || done.Result.Content[0].Text != mustList(t, dir) {
		t.Errorf("list_files result = %+v", done.Result)
	}

	u := find[*ahpwire.ChatUsage](as)
	if u.Usage.InputTokens == nil || u.Usage.OutputTokens == nil || *u.Usage.OutputTokens < 100 || u.Usage.Model != ModelID {
		t.Errorf("usage = %+v", u.Usage)
	}
	if _, ok := last(as).(*ahpwire.ChatTurnComplete); !ok {
		t.Fatalf("last action %s", last(as).ActionType())
	}
	if as[len(as)-2].ActionType() != ahpwire.ActionChatUsage {
		t.Errorf("usage is not reported right before turnComplete")
	}
}

// hasFenceWithLang reports whether md opens a ``` fence with a language tag.
func hasFenceWithLang(md string) bool {
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") && len(strings.TrimLeft(line, "`")) > 0 {
			return true
		}
	}
	return false
}

// find returns the first action of type T (fails the test via nil deref
// avoidance: returns the zero pointer, which callers then check).
func find[T ahpwire.Action](as []ahpwire.Action) T {
	for _, a := range as {
		if v, ok := a.(T); ok {
			return v
		}
	}
	var zero T
	return zero
}

func mustList(t *testing.T, dir string) string {
	t.Helper()
	out, err := ListFiles(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPlainMessageWithoutDir(t *testing.T) {
	rec, err := runTurn(t, New(Options{Now: fixedNow}), "t1", "hello", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec.actions, nil)
	done := find[*ahpwire.ChatToolCallComplete](rec.actions)
	if done.Result.Success || done.Result.Error == nil || done.Result.Error.Code != "no_working_directory" {
		t.Fatalf("list_files without a dir: %+v", done.Result)
	}
	if md := markdownText(rec.actions); !strings.Contains(md, "could not list the working directory") {
		t.Errorf("answer does not mention the failure:\n%s", md)
	}
}

func TestPlainMessageEmpty(t *testing.T) {
	rec, err := runTurn(t, testAgent(projectDir(t)), "t1", " \n ", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec.actions, nil)
	if md := markdownText(rec.actions); !strings.Contains(md, "> (an empty message)") || !strings.Contains(md, "handleRequest") {
		t.Errorf("answer to an empty message:\n%s", md)
	}
}

func TestPlainMessageVariesWithPrompt(t *testing.T) {
	dir := projectDir(t)
	seen := map[string]bool{}
	for _, p := range []string{"fix the parser", "write docs", "speed up the build", "add a cache", "rename the package", "explain goroutines"} {
		rec, err := runTurn(t, testAgent(dir), "t1", p, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		md := markdownText(rec.actions)
		if !strings.Contains(md, "> "+p) {
			t.Errorf("answer to %q does not quote it", p)
		}
		seen[md] = true
	}
	if len(seen) != 6 {
		t.Errorf("only %d distinct answers for 6 prompts", len(seen))
	}
}

func TestHelpAndUnknown(t *testing.T) {
	for _, in := range []string{"/demo", "/demo help"} {
		rec, err := runTurn(t, testAgent(""), "t1", in, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, "t1", rec.actions, nil)
		md := markdownText(rec.actions)
		for _, w := range []string{"/demo tools", "/demo big N", "/demo slow", "/demo error", "/demo input", "/demo help"} {
			if !strings.Contains(md, w) {
				t.Errorf("%s: help lacks %q", in, w)
			}
		}
	}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo frobnicate", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if md := markdownText(rec.actions); !strings.HasPrefix(md, "I don't know the demo command `frobnicate`.") || !strings.Contains(md, "/demo tools") {
		t.Errorf("unknown answer:\n%s", md)
	}
}

func TestBig(t *testing.T) {
	for _, n := range []int{minBig, 1000, 3 << 20, 5<<20 + 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rec, err := runTurn(t, testAgent(""), "t1", fmt.Sprintf("/demo big %d", n), false, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSequence(t, "t1", rec.actions, nil)
			md := markdownText(rec.actions)
			if len(md) != n {
				t.Fatalf("reply has %d bytes, want %d", len(md), n)
			}
			lines := strings.Split(md, "\n")
			if lines[len(lines)-1] != fmt.Sprintf("-- end of %d bytes --", n) {
				t.Fatalf("last line %q", lines[len(lines)-1])
			}
			if d, want := count(rec.actions, ahpwire.ActionChatDelta), (n+BigChunk-1)/BigChunk; d != want {
				t.Errorf("%d deltas, want %d", d, want)
			}
		})
	}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo big 3m", false, nil)
	if err != nil || len(markdownText(rec.actions)) != 3<<20 {
		t.Fatalf("/demo big 3m: %v", err)
	}
}

func TestBigMax(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MiB reply skipped in -short mode")
	}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo big 32m", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := markdownText(rec.actions)
	if len(md) != MaxBig || !strings.HasSuffix(md, "\n-- end of 33554432 bytes --") || count(rec.actions, ahpwire.ActionChatDelta) != 8 {
		t.Fatalf("32 MiB: %d bytes, %d deltas", len(md), count(rec.actions, ahpwire.ActionChatDelta))
	}
}

func TestBigBadArgs(t *testing.T) {
	for in, want := range map[string]string{
		"/demo big":      "missing size",
		"/demo big 33m":  "above the limit",
		"/demo big 5":    "too small",
		"/demo big many": "not a byte count",
	} {
		rec, err := runTurn(t, testAgent(""), "t1", in, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, "t1", rec.actions, nil)
		if md := markdownText(rec.actions); !strings.Contains(md, want) || !strings.Contains(md, "Sorry") {
			t.Errorf("%s: answer %q lacks %q", in, md, want)
		}
	}
}

func TestSlowCompletes(t *testing.T) {
	rec, err := runTurn(t, testAgent(""), "t1", "/demo slow 7", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec.actions, nil)
	md := markdownText(rec.actions)
	if !strings.Contains(md, "line 7 of 7") || strings.Count(md, " of 7\n") != 6 {
		t.Errorf("slow answer:\n%s", md)
	}
	rec, err = runTurn(t, testAgent(""), "t1", "/demo slow", false, nil)
	if err != nil || !strings.Contains(markdownText(rec.actions), fmt.Sprintf("line %d of %d", DefaultSlowLines, DefaultSlowLines)) {
		t.Fatalf("default slow: %v", err)
	}
	rec, err = runTurn(t, testAgent(""), "t1", "/demo slow 0", false, nil)
	if err != nil || !strings.Contains(markdownText(rec.actions), "line count must be") {
		t.Fatalf("bad slow: %v", err)
	}
}

func TestErrorAndResume(t *testing.T) {
	ag := testAgent("")
	rec, err := runTurn(t, ag, "t1", "/demo error", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := checkSequence(t, "t1", rec.actions, nil)
	e, ok := last(rec.actions).(*ahpwire.ChatError)
	if !ok || e.Part == nil || e.Part.Kind != ahpwire.PartError || e.Part.Resumable == nil || !*e.Part.Resumable ||
		e.Part.Error == nil || e.Part.Error.Message == "" || e.Duration == nil {
		t.Fatalf("first run ends with %s", dump(rec.actions[len(rec.actions)-1:]))
	}
	if find[*ahpwire.ChatTurnComplete](rec.actions) != nil {
		t.Fatal("the failing run also completed")
	}
	rec2, err := runTurn(t, ag, "t1", "/demo error", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec2.actions, s) // part ids must not collide with the first run's
	if _, ok := last(rec2.actions).(*ahpwire.ChatTurnComplete); !ok {
		t.Fatalf("resumed run ends with %s", last(rec2.actions).ActionType())
	}
	if md := markdownText(rec2.actions); !strings.Contains(md, "Resumed after the error") || !strings.Contains(md, "3. Step three") {
		t.Errorf("resumed answer:\n%s", md)
	}
	// Resuming a turn that never failed still ends it cleanly.
	rec3, err := runTurn(t, ag, "t2", "hello", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t2", rec3.actions, nil)
	// A script stopped midway (the host stopped during /demo tools) that
	// cannot go on says so, rather than that nothing was left to do.
	rec4, err := runTurn(t, ag, "t3", "/demo tools", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if md := markdownText(rec4.actions); !strings.Contains(md, "cannot pick this command up where it stopped") || strings.Contains(md, "nothing left to do") {
		t.Errorf("resumed /demo tools:\n%s", md)
	}
}

func TestInputAccepted(t *testing.T) {
	drafts := map[string]ahpwire.ChatInputAnswer{
		"name":  {State: ahpwire.AnswerDraft, Value: ptr(ahpwire.TextAnswer("draft-name"))},
		"hours": {State: ahpwire.AnswerDraft, Value: ptr(ahpwire.NumberAnswer(2.5))},
	}
	final := map[string]ahpwire.ChatInputAnswer{
		"name":     submitted(ahpwire.TextAnswer("rocket|ship")),
		"tests":    submitted(ahpwire.BoolAnswer(false)),
		"language": {State: ahpwire.AnswerSubmitted, Value: &ahpwire.ChatInputAnswerValue{Kind: ahpwire.AnswerValueSelected, Value: []byte(`"go"`), FreeformValues: []string{"Zig"}}},
		"features": submitted(ahpwire.SelectedManyAnswer([]string{"cli", "ci"})),
	}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo input", false, answerInput(ahpwire.InputAccept, drafts, final))
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec.actions, nil)
	req := find[*ahpwire.ChatInputRequested](rec.actions)
	kinds := map[string]bool{}
	free := false
	for _, q := range req.Request.Questions {
		kinds[q.Kind] = true
		free = free || (q.AllowFreeformInput != nil && *q.AllowFreeformInput)
	}
	for _, k := range []string{ahpwire.QuestionText, ahpwire.QuestionNumber, ahpwire.QuestionBoolean, ahpwire.QuestionSingleSelect, ahpwire.QuestionMultiSelect} {
		if !kinds[k] {
			t.Errorf("no %s question", k)
		}
	}
	if !free || req.Request.ID != "t1.input" {
		t.Errorf("request %+v", req.Request)
	}
	md := markdownText(rec.actions)
	for _, w := range []string{
		`| Project name | rocket\|ship |`, "| Time budget | 2.5 (draft) |", "| Tests first | no |",
		"| Language | Go, Zig |", "| Features | Command-line interface, CI workflow |", "scaffold `rocket|ship`",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("answer lacks %q:\n%s", w, md)
		}
	}
}

func TestInputDeclinedCancelledSkipped(t *testing.T) {
	for resp, want := range map[string]string{ahpwire.InputDecline: "You declined", ahpwire.InputCancel: "cancelled, so I stopped"} {
		rec, err := runTurn(t, testAgent(""), "t1", "/demo input", false, answerInput(resp, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, "t1", rec.actions, nil)
		if md := markdownText(rec.actions); !strings.Contains(md, want) {
			t.Errorf("%s: answer %q", resp, md)
		}
	}
	final := map[string]ahpwire.ChatInputAnswer{"language": {State: ahpwire.AnswerSkipped, FreeformValues: []string{"COBOL"}}}
	rec, err := runTurn(t, testAgent(""), "t1", "/demo input", false, answerInput(ahpwire.InputAccept, nil, final))
	if err != nil {
		t.Fatal(err)
	}
	md := markdownText(rec.actions)
	for _, w := range []string{"| Language | _skipped_ (COBOL) |", "| Project name | _no answer_ |", "scaffold the project"} {
		if !strings.Contains(md, w) {
			t.Errorf("answer lacks %q:\n%s", w, md)
		}
	}
}

func TestBadTurn(t *testing.T) {
	if err := testAgent("").Run(t.Context(), Turn{TurnID: "t1"}); !errors.Is(err, ErrBadTurn) {
		t.Fatalf("no Emit: %v", err)
	}
	if err := testAgent("").Run(t.Context(), Turn{Emit: func(ahpwire.Action) {}}); !errors.Is(err, ErrBadTurn) {
		t.Fatalf("no TurnID: %v", err)
	}
}

func TestProviders(t *testing.T) {
	ps := testAgent("").Providers()
	if len(ps) != 1 || ps[0].Provider != ProviderID || len(ps[0].Models) != 2 || ps[0].Models[0].ID != ModelID ||
		ps[0].Models[1].ID != ModelTerseID || ps[0].DisplayName == "" || len(ps[0].ProtectedResources) != 1 {
		t.Fatalf("providers %+v", ps)
	}
}
