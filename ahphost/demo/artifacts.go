package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// Session artifacts (AHP 1.1): the durable items a session produced,
// references or derives its work from. "/demo artifacts" registers four
// (a document it wrote, a pull request it opened, the issue the work
// derives from and a page it points to), "/demo artifacts clear" removes
// them, and "/demo edit" registers the document it created. Every artifact
// is a ResourceArtifact keyed by its uri, whose content the host serves
// through resourceRead. Nothing leaves the machine: the https URIs name
// example.invalid and are answered by the demo host itself.

// Relation kinds of AHP 1.1's ArtifactRelation.
const (
	RelationCreated     = "created"
	RelationReferenced  = "referenced"
	RelationDerivedFrom = "derivedFrom"
)

// demoArtifact is one artifact the demo registers, with the content the
// host serves under its uri.
type demoArtifact struct {
	uri, label, displayKind, relation string
	contentType, content              string
}

// resourceArtifact returns AHP 1.1's ResourceArtifact for d, related to
// chat.
func resourceArtifact(d demoArtifact, chat string) ahpwire.SessionArtifact {
	type relation struct {
		Kind string `json:"kind"`
		Chat string `json:"chat,omitempty"`
	}
	raw, err := json.Marshal(struct {
		Type        string     `json:"type"`
		URI         string     `json:"uri"`
		ContentType string     `json:"contentType,omitempty"`
		SizeHint    int64      `json:"sizeHint"`
		Label       string     `json:"label"`
		DisplayKind string     `json:"displayKind,omitempty"`
		Relations   []relation `json:"relations"`
	}{"resource", d.uri, d.contentType, int64(len(d.content)), d.label, d.displayKind, []relation{{Kind: d.relation, Chat: chat}}})
	var a ahpwire.SessionArtifact
	if err == nil {
		err = json.Unmarshal(raw, &a)
	}
	if err != nil { // cannot happen: plain strings
		return ahpwire.SessionArtifact{}
	}
	return a
}

// demoArtifacts are the artifacts of "/demo artifacts".
func demoArtifacts() []demoArtifact {
	const site = "https://example.invalid/demo/project"
	return []demoArtifact{
		{uri: demoRoot + "docs/REVIEW.md", label: "Review notes (docs/REVIEW.md)", displayKind: "document", relation: RelationCreated,
			contentType: "text/markdown", content: "# Review notes\n\n- `step1` now validates its input first.\n" +
				"- Errors go to stderr.\n- The legacy loader can go once `render.Load` ships.\n"},
		{uri: site + "/pull/42", label: "Pull request #42: validate input first", displayKind: "pullRequest", relation: RelationCreated,
			contentType: "text/plain", content: "Pull request #42 (simulated by the demo agent)\n\n" +
				"Validate input first\n\nstate: open · checks: passing · 3 files changed\n"},
		{uri: site + "/issues/7", label: "Issue #7: crash on empty input", displayKind: "issue", relation: RelationDerivedFrom,
			contentType: "text/plain", content: "Issue #7 (simulated by the demo agent)\n\nCrash on empty input\n\n" +
				"Running `app` with no arguments panics in step1.\n"},
		{uri: site + "/wiki/error-handling", label: "Error handling guidelines", displayKind: "link", relation: RelationReferenced,
			contentType: "text/plain", content: "Error handling guidelines (simulated by the demo agent)\n\n" +
				"Wrap errors with context; report them on stderr.\n"},
	}
}

// artifactHooks returns the turn's artifact hooks, or nil when the host
// keeps no artifacts.
func (r *run) artifactHooks() agent.ArtifactHooks {
	ah, ok := r.t.SessionHooks.(agent.ArtifactHooks)
	if !ok || r.t.Channels == nil {
		return nil
	}
	return ah
}

// registerArtifact stores d's content and lists d as a session artifact.
func (r *run) registerArtifact(ah agent.ArtifactHooks, d demoArtifact) {
	r.t.Channels.PutResource(d.uri, d.contentType, []byte(d.content))
	ah.SetArtifact(resourceArtifact(d, r.t.Chat))
}

// artifacts runs "/demo artifacts [clear]".
func (r *run) artifacts() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("artifacts", r.cmd.word, r.cmd.bad))
	}
	ah := r.artifactHooks()
	if ah == nil {
		return r.answerOnly("This host keeps no session artifacts, so the demo cannot show them here.\n")
	}
	list := demoArtifacts()
	if r.cmd.n == 1 { // clear
		for _, d := range list {
			ah.RemoveArtifact(d.uri)
		}
		return r.answerOnly("I removed the demo's artifacts from this session (`session/artifactRemoved`).\n")
	}
	var b strings.Builder
	b.WriteString("I listed these as the session's artifacts (AHP 1.1, `session/artifactSet`):\n\n")
	for _, d := range list {
		r.registerArtifact(ah, d)
		fmt.Fprintf(&b, "- %s — %s, %s\n", d.label, d.displayKind, relationText(d.relation))
	}
	b.WriteString("\nOpen them with **F8** (or Alt+O); Enter reads one through `resourceRead`. " +
		"They are simulated: the demo host serves their content itself. `/demo artifacts clear` removes them.\n")
	if err := r.streamMarkdown(b.String()); err != nil {
		return err
	}
	return r.complete()
}

// relationText says what a relation kind means.
func relationText(kind string) string {
	switch kind {
	case RelationCreated:
		return "created by this chat"
	case RelationDerivedFrom:
		return "the work derives from it"
	}
	return "referenced as worth returning to"
}
