package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestCapField(t *testing.T) {
	if got := capField("short", 10); got != "short" {
		t.Errorf("short = %q", got)
	}
	got := capField(strings.Repeat("界", 10), 10) // 3 bytes per rune: cut inside the 4th
	if got != "界界界…" || !utf8.ValidString(got) {
		t.Errorf("cut = %q, want three runes and an ellipsis", got)
	}
}

// hugeTool is a pending call whose every name, title, label and message is
// 9 KB (with a marker at the end that must not be laid out).
func hugeTool() ahpwire.ToolCallState {
	h := strings.Repeat("word 界 ", 1100) + "TAILMARK"
	return ahpwire.ToolCallState{
		Status: ahpwire.ToolPendingConfirmation, ToolCallID: "tc", ToolName: h, DisplayName: h, Intention: h,
		InvocationMessage: rich(h), ConfirmationTitle: rich(h),
		RiskAssessment: &ahpwire.ToolCallRiskAssessment{Kind: h, Status: h, Reason: rich(h)},
		Options:        []ahpwire.ConfirmationOption{{ID: "a", Label: h, Kind: "approve"}, {ID: "d", Label: h, Kind: "deny"}},
		Error:          &ahpwire.ToolError{Message: h, Code: h},
	}
}

func TestHostileToolFieldsCapped(t *testing.T) {
	tc := hugeTool()
	orig := tc.ToolName
	m := msgOf(apply(startState(), toolStart(tc)))
	out := New(DarkStyles()).RenderMessage(m, 100, ViewOpts{Now: t0})
	text := stripLines(out.Lines)
	if strings.Contains(text, "TAILMARK") {
		t.Error("the end of a 9 KB field was laid out")
	}
	if !strings.Contains(text, "…") {
		t.Error("no ellipsis marks a capped field")
	}
	// Six capped messages of MessageCap bytes at most, plus names and
	// labels: well under the 9 KB × 10 the host sent.
	if n := len(text); n > 8*MessageCap+8*NameCap+4000 {
		t.Errorf("%d bytes laid out for the call", n)
	}
	if m.Blocks.At(0).Tool.ToolName != orig || len(m.Blocks.At(0).Tool.Options[0].Label) != len(orig) {
		t.Error("capping modified the state")
	}
	for i, l := range out.Lines {
		if w := ansi.StringWidth(l); w > 100 {
			t.Fatalf("line %d is %d columns wide", i, w)
		}
	}
}

// BenchmarkHostileToolCall renders a pending call with 9 KB fields as a
// live frame would (the pill's timer changes each time).
func BenchmarkHostileToolCall(b *testing.B) {
	m := msgOf(apply(startState(), toolStart(hugeTool())))
	r := New(DarkStyles())
	for b.Loop() {
		r.RenderMessage(m, 120, ViewOpts{Now: t0})
	}
}

func TestCutAtRuneNeverSplitsACharacter(t *testing.T) {
	s := "añ€😀z" // 1, 2, 3, 4, 1 bytes
	for n, want := range map[int]string{0: "", 1: "a", 2: "a", 3: "añ", 5: "añ", 6: "añ€", 9: "añ€", 10: "añ€😀", 11: s, 99: s} {
		if got := CutAtRune(s, n); got != want {
			t.Errorf("CutAtRune(%q, %d) = %q, want %q", s, n, got, want)
		}
	}
}
