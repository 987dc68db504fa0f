package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Review comments (the session's annotations channel, issue 31): after
// /demo edit the agent leaves a comment of its own on the change it is
// least sure of; a prompt made by a client's "send the comments"
// (ahpwire.ReviewPrompt) is answered comment by comment: a reply on each
// thread and the thread resolved. /demo touch writes a file in the
// session's directory, so a client watching it (createResourceWatch)
// sees the change.

// annotator returns the turn's annotations channel (nil without one).
func (r *run) annotator() agent.Annotator {
	a, _ := r.t.Channels.(agent.Annotator)
	return a
}

// commentOnEdit adds the agent's comment on main.go's step1 change.
func (r *run) commentOnEdit() {
	an := r.annotator()
	if an == nil {
		return
	}
	id := "demo-" + r.t.TurnID + "-step1"
	an.Annotate(r.t.Session, &ahpwire.AnnotationsSet{Annotation: ahpwire.Annotation{
		ID: id, TurnID: r.t.TurnID,
		Origin:   &ahpwire.AnnotationOrigin{Session: r.t.Session, Chat: r.t.Chat, TurnID: r.t.TurnID},
		Resource: demoRoot + "main.go",
		Range:    &ahpwire.TextRange{Start: ahpwire.TextPosition{Line: 10}, End: ahpwire.TextPosition{Line: 10, Character: 38}},
		Entries: []ahpwire.AnnotationEntry{{ID: id + "/0", Meta: ahpwire.AuthorMeta("agent"),
			Text: ahpwire.MarkdownText("I made `step1` validate first. Is `check(1)` the right guard, or should it be `check(0)`?")}},
	}})
}

// review answers a ReviewPrompt: a reply on every listed thread, which is
// then resolved, and a summary.
func (r *run) review(ids []string) error {
	an := r.annotator()
	var b strings.Builder
	b.WriteString("Going through the review comments:\n\n")
	for i, id := range ids {
		reply := fmt.Sprintf("Done in turn %s: I applied the change this comment asks for.", r.t.TurnID)
		if an != nil {
			an.Annotate(r.t.Session, &ahpwire.AnnotationsEntrySet{AnnotationID: id, Entry: ahpwire.AnnotationEntry{
				ID: fmt.Sprintf("%s/%s-%d", id, r.t.TurnID, i), Text: ahpwire.Plain(reply), Meta: ahpwire.AuthorMeta("agent")}})
			an.Annotate(r.t.Session, &ahpwire.AnnotationsUpdated{AnnotationID: id, Resolved: ahpwire.Ptr(true)})
		}
		fmt.Fprintf(&b, "- `%s`: addressed, replied and resolved.\n", id)
	}
	if an == nil {
		b.WriteString("\n(This host has no annotations channel, so the threads are left as they were.)\n")
	}
	return r.answerOnly(b.String())
}

// touchFile is what /demo touch writes, relative to the session's
// directory.
const touchFile = ".ahptui-demo/touched.md"

// touch writes (or rewrites) touchFile in the session's directory.
func (r *run) touch() error {
	if r.t.Dir == "" {
		return r.answerOnly("This session has no local directory to write in.")
	}
	p := filepath.Join(r.t.Dir, filepath.FromSlash(touchFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return r.answerOnly(fmt.Sprintf("Could not create `%s`: %v", filepath.Dir(touchFile), err))
	}
	body := fmt.Sprintf("# touched by the demo agent\n\nturn %s\n", r.t.TurnID)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		return r.answerOnly(fmt.Sprintf("Could not write `%s`: %v", touchFile, err))
	}
	return r.answerOnly(fmt.Sprintf("I wrote `%s` in the session's directory; a client watching the directory sees it change.", touchFile))
}
