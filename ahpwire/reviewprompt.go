package ahpwire

import (
	"fmt"
	"path"
	"strings"
)

// ReviewPromptHeader starts the prompt a client sends to have the agent
// address a session's open review comments (ReviewPrompt). It is plain
// text: any agent reads it; the demo agent also answers each comment on
// the annotations channel.
const ReviewPromptHeader = "Please address these review comments:"

// ReviewPrompt writes the open (unresolved) annotations as a prompt: the
// header, then one item per annotation, "- [id] file:lines — comment"
// followed by its replies indented ("" when none is open).
func ReviewPrompt(list []Annotation) string {
	var b strings.Builder
	for _, a := range list {
		if a.Resolved || len(a.Entries) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(ReviewPromptHeader + "\n")
		}
		fmt.Fprintf(&b, "- [%s] %s — %s\n", a.ID, AnnotationPlace(a), oneLine(a.Entries[0].Text.Text))
		for _, e := range a.Entries[1:] {
			fmt.Fprintf(&b, "  - %s\n", oneLine(e.Text.Text))
		}
	}
	return b.String()
}

// AnnotationPlace names where an annotation is anchored: the resource's
// base name and its lines (1-based), e.g. "main.go:10-12"; one anchored to
// a chat (a comment on a reply, not on a file) is "the reply".
func AnnotationPlace(a Annotation) string {
	if strings.HasPrefix(a.Resource, ChatScheme) {
		return "the reply"
	}
	name := path.Base(strings.TrimSuffix(a.Resource, "/"))
	if name == "." || name == "/" || name == "" {
		name = a.Resource
	}
	if a.Range == nil {
		return name
	}
	if a.Range.End.Line > a.Range.Start.Line {
		return fmt.Sprintf("%s:%d-%d", name, a.Range.Start.Line+1, a.Range.End.Line+1)
	}
	return fmt.Sprintf("%s:%d", name, a.Range.Start.Line+1)
}

// ReviewPromptIDs returns the annotation ids a ReviewPrompt lists (nil
// when text is not one).
func ReviewPromptIDs(text string) []string {
	if !strings.HasPrefix(strings.TrimSpace(text), ReviewPromptHeader) {
		return nil
	}
	var ids []string
	for _, l := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(l, "- [")
		if !ok {
			continue
		}
		if id, _, ok := strings.Cut(rest, "]"); ok && id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// oneLine folds text to one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
