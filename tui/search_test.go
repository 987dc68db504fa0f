package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/chat"
)

// searchState is a chat with a user message, reasoning, a tool call with
// output and a markdown answer.
func searchState(t *testing.T) reducer.State {
	t.Helper()
	tc := ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "list_files", DisplayName: "List files",
		Success: ahpwire.Ptr(true), Content: []ahpwire.ToolResultContent{ahpwire.TextContent("needle.txt\nother.go")}}
	cs := ahpwire.ChatState{Resource: "ahp-chat:/c", Turns: []ahpwire.Turn{{
		ID: "t1", Message: ahpwire.UserMessage("find the \x1b[31mhaystack"), State: ahpwire.TurnComplete,
		ResponseParts: []ahpwire.ResponsePart{
			ahpwire.ReasoningPart("r1", "thinking about a Needle"),
			{Kind: ahpwire.PartToolCall, ID: "tc1", ToolCall: &tc},
			ahpwire.MarkdownPart("m1", "Here is the answer with ```code```."),
		},
	}}}
	st := reducer.Project(cs)
	if len(st.Messages) != 2 {
		t.Fatalf("messages %d", len(st.Messages))
	}
	return st
}

// searchAll runs a whole search on the caller's goroutine: every batch,
// every slice.
func searchAll(msgs []*reducer.Message, q string) []chat.SearchHit {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var hits []chat.SearchHit
	for from := 0; from < len(msgs); {
		docs, next := chat.CaptureDocs(msgs, from)
		t := &chat.SearchTask{Run: &chat.SearchRun{}, Query: q, Docs: docs}
		for {
			r := t.Slice()
			hits = append(hits, r.Hits...)
			if r.Rest == nil {
				break
			}
		}
		from = next
	}
	return hits
}

func TestSearchFindsCollapsedBlocks(t *testing.T) {
	st := searchState(t)
	hits := searchAll(st.Messages, "NEEDLE")
	if len(hits) != 2 || hits[0].Msg != st.Messages[1] || hits[1].Msg != st.Messages[1] || hits[0].Block == hits[1].Block {
		t.Fatalf("hits %+v (want the reasoning and the tool output)", hits)
	}
	if h := searchAll(st.Messages, "haystack"); len(h) != 1 || h[0].Msg != st.Messages[0] {
		t.Fatalf("user message hits %+v", h)
	}
	if h := searchAll(st.Messages, "the haystack"); len(h) != 1 {
		t.Fatalf("a match across a stripped escape sequence: %+v", h)
	}
	if h := searchAll(st.Messages, "  "); h != nil {
		t.Fatalf("blank query %+v", h)
	}
}

func TestHighlightLineKeepsTextAndMarksMatches(t *testing.T) {
	sty := lipgloss.NewStyle().Reverse(true)
	in := "\x1b[1mfoo\x1b[0m bar FOO ünï foo"
	out := chat.HighlightLine(in, "foo", sty)
	if ansi.Strip(out) != ansi.Strip(in) {
		t.Fatalf("text changed: %q", ansi.Strip(out))
	}
	if out == in {
		t.Fatal("nothing highlighted")
	}
	if chat.HighlightLine(in, "zzz", sty) != in {
		t.Fatal("a line without matches changed")
	}
	lines := []string{"a", "\x1b[2mxFoOx\x1b[0m", "b", "c", "foo"}
	if chat.LineNear(lines, "foo", 0) != 1 || chat.LineNear(lines, "zzz", 0.5) != -1 || chat.LineNear(nil, "foo", 0) != -1 {
		t.Fatal("lineNear")
	}
	many := make([]string, 1000)
	for i := range many {
		many[i] = "foo " + strconv.Itoa(i)
	}
	if got := chat.LineNear(many, "foo", 0.5); got != 500-64 {
		t.Fatalf("lineNear from the estimate: %d", got)
	}
}

func TestExportMarkdownIsSanitisedAndComplete(t *testing.T) {
	st := searchState(t)
	md := chat.ChatMarkdown("My \x1b]0;evil\x07chat", st.Messages)
	for _, want := range []string{"# My", "## You", "find the", "haystack", "## Agent", "> **Thinking**", "**Tool: List files** (completed)",
		"needle.txt", "Here is the answer"} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
	if strings.ContainsAny(md, "\x1b\x07") {
		t.Fatalf("control characters in export: %q", md)
	}
	if f := chat.Fence("a ``` b"); !strings.HasPrefix(f, "````\n") {
		t.Fatalf("fence %q", f)
	}
	dir := t.TempDir()
	name := chat.ExportFileName("Fix the /etc/passwd parser!", time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC))
	if strings.ContainsAny(name, "/ !") || !strings.HasSuffix(name, ".md") {
		t.Fatalf("file name %q", name)
	}
	msg := chat.ExportCmd(dir, name, md)().(chat.ExportDoneMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || string(b) != md {
		t.Fatalf("file %q %v", b, err)
	}
	if again := chat.ExportCmd(dir, name, md)().(chat.ExportDoneMsg); again.Err == nil {
		t.Fatal("an export overwrote an existing file")
	}
}
