package ahpwire

import (
	"reflect"
	"strings"
	"testing"
)

// TestReviewPrompt: open annotations become one item each (place, comment,
// replies), resolved ones are left out, and ReviewPromptIDs reads the ids
// back; a prompt without the header lists none.
func TestReviewPrompt(t *testing.T) {
	list := []Annotation{
		{ID: "a", Resource: "file:///w/main.go", Range: &TextRange{Start: TextPosition{Line: 9}, End: TextPosition{Line: 11}},
			Entries: []AnnotationEntry{{ID: "a0", Text: Plain("Use a\nconstant.")}, {ID: "a1", Text: Plain("And name it.")}}},
		{ID: "b", Resource: "file:///w/x.go", Resolved: true, Entries: []AnnotationEntry{{ID: "b0", Text: Plain("done")}}},
		{ID: "c", Resource: "file:///w/y.go", Range: &TextRange{Start: TextPosition{Line: 2}, End: TextPosition{Line: 2, Character: 4}},
			Entries: []AnnotationEntry{{ID: "c0", Text: MarkdownText("**why?**")}}},
	}
	p := ReviewPrompt(list)
	want := ReviewPromptHeader + "\n- [a] main.go:10-12 — Use a constant.\n  - And name it.\n- [c] y.go:3 — **why?**\n"
	if p != want {
		t.Fatalf("prompt\n%q\nwant\n%q", p, want)
	}
	if ids := ReviewPromptIDs(p); !reflect.DeepEqual(ids, []string{"a", "c"}) {
		t.Fatalf("ids %v", ids)
	}
	if ReviewPromptIDs("- [a] not a review prompt") != nil || ReviewPrompt(list[1:2]) != "" {
		t.Fatal("a prompt without the header or open comments")
	}
	if p := AnnotationPlace(Annotation{Resource: "ahp-chat:/c"}); p != "the reply" {
		t.Fatal(p)
	}
	if !strings.HasPrefix(AnnotationPlace(Annotation{Resource: "file:///w/"}), "w") {
		t.Fatal(AnnotationPlace(Annotation{Resource: "file:///w/"}))
	}
}
