package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// decide answers the pending confirmation of turn id with option.
func (e *env) decide(chat, id string, approve bool, option string) {
	e.t.Helper()
	tc := e.pendingTool(e.c, chat)
	conf := &ahpwire.ChatToolCallConfirmed{TurnID: id, ToolCallID: tc.ToolCallID, Approved: approve, SelectedOptionID: option}
	if approve {
		conf.Confirmed = ahpwire.ConfirmedUserAction
	} else {
		conf.Reason = ahpwire.CancelDenied
	}
	if _, err := e.c.c.Dispatch(e.ctx, chat, conf); err != nil {
		e.t.Fatal(err)
	}
}

// changeset returns the chat's session changeset: each file's before
// ("" and false when created) and after, read with resourceRead.
func (e *env) changeset(chat string) map[string][2]string {
	e.t.Helper()
	st := e.chatState(e.c, chat)
	if len(st.Changesets) == 0 {
		return nil
	}
	snap, err := e.c.c.Subscribe(e.ctx, st.Changesets[0].URITemplate, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	var cs ahpwire.ChangesetState
	if err := json.Unmarshal(snap.State, &cs); err != nil {
		e.t.Fatalf("changeset %s: %v", snap.State, err)
	}
	read := func(s *ahpwire.FileEditSide) string {
		if s == nil {
			return "(none)"
		}
		r, err := e.c.c.ResourceRead(e.ctx, s.Content.URI, "")
		if err != nil {
			e.t.Fatalf("resourceRead %s: %v", s.Content.URI, err)
		}
		return string(r.Data)
	}
	out := map[string][2]string{}
	for _, f := range cs.Files {
		out[filepath.Base(f.ID)] = [2]string{read(f.Edit.Before), read(f.Edit.After)}
	}
	return out
}

// An agent that edits files with its own tools (Claude Code's Edit and
// Write; not through fs/write_text_file): an approved edit joins the
// session's changeset with the file's whole content before and after —
// from the agent's own report of the original file, or else from the
// bridge's read before the call ran — a created file has no before, and
// a denied edit changes nothing and lists nothing.
func TestAgentOwnEditsJoinTheChangeset(t *testing.T) {
	e := newEnv(t, opts{})
	hello := filepath.Join(e.dir, "hello.txt")
	if err := os.WriteFile(hello, []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "self")

	e.prompt(e.c, chat, "t1", "selfedit")
	e.decide(chat, "t1", false, "reject")
	if md := markdown(e.finished(e.c, chat, "t1")); md != "not edited" {
		t.Fatalf("denied: %q", md)
	}
	if b, _ := os.ReadFile(hello); string(b) != "first line\nsecond line\n" {
		t.Fatalf("a denied edit changed the file: %q", b)
	}
	if cs := e.changeset(chat); len(cs) != 0 {
		t.Fatalf("a denied edit is in the changeset: %v", cs)
	}

	e.prompt(e.c, chat, "t2", "selfedit nometa")
	e.decide(chat, "t2", true, "allow")
	turn := e.finished(e.c, chat, "t2")
	if md := markdown(turn); md != "edited" {
		t.Fatalf("approved: %q", md)
	}
	var diff *ahpwire.ToolResultContent
	for i, c := range toolCalls(turn.ResponseParts)[0].Content {
		if c.Type == ahpwire.ContentFileEdit {
			diff = &toolCalls(turn.ResponseParts)[0].Content[i]
		}
	}
	if diff == nil {
		t.Fatalf("the edit shows no diff: %+v", toolCalls(turn.ResponseParts)[0])
	}
	want := [2]string{"first line\nsecond line\n", "FIRST line\nsecond line\n"}
	if cs := e.changeset(chat); cs["hello.txt"] != want {
		t.Fatalf("changeset after the edit (snapshot): %q", cs)
	}

	// The original file the agent reports wins over the bridge's read:
	// here the agent wrote before it announced the call (an edit accepted
	// without asking can overtake its tool_call), so the read saw the new
	// content already. (The file changed by hand since the last edit.)
	if err := os.WriteFile(hello, []byte("first again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.run(e.c, chat, "t3", "selfedit late")
	e.prompt(e.c, chat, "t4", "selfwrite made.txt")
	e.decide(chat, "t4", true, "allow")
	e.finished(e.c, chat, "t4")
	cs := e.changeset(chat)
	// hello.txt keeps the before of its first change in the session.
	if cs["hello.txt"] != [2]string{"first line\nsecond line\n", "FIRST again\n"} || cs["made.txt"] != [2]string{"(none)", "made by the agent\n"} {
		t.Fatalf("changeset: %q", cs)
	}

	// An agent that shows the diff only in its permission request.
	e2 := newEnv(t, opts{})
	if err := os.WriteFile(filepath.Join(e2.dir, "hello.txt"), []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat2 := e2.newSession(e2.c, "askonly")
	e2.prompt(e2.c, chat2, "t1", "selfedit askonly")
	e2.decide(chat2, "t1", true, "allow")
	e2.finished(e2.c, chat2, "t1")
	if cs := e2.changeset(chat2); cs["hello.txt"] != [2]string{"first\n", "FIRST\n"} {
		t.Fatalf("changeset (diff in the permission request only): %q", cs)
	}

	// A diff without old text over an existing file (Claude Code's Write
	// shows every write so): the prompt shows what it replaces.
	if err := os.WriteFile(filepath.Join(e2.dir, "over.txt"), []byte("old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e2.prompt(e2.c, chat2, "t2", "selfwrite over.txt")
	tc := e2.pendingTool(e2.c, chat2)
	if tc.Edits == nil || len(tc.Edits.Items) != 1 || tc.Edits.Items[0].Before == nil {
		t.Fatalf("an overwrite shows as a creation: %+v", tc.Edits)
	}
	if r, err := e2.c.c.ResourceRead(e2.ctx, tc.Edits.Items[0].Before.Content.URI, ""); err != nil || string(r.Data) != "old content\n" {
		t.Fatalf("the overwritten side: %q %v", r.Data, err)
	}
	e2.decide(chat2, "t2", true, "allow")
	e2.finished(e2.c, chat2, "t2")
	if cs := e2.changeset(chat2); cs["over.txt"] != [2]string{"old content\n", "made by the agent\n"} {
		t.Fatalf("changeset after an overwrite: %q", cs)
	}
}

// The approval prompt of an edit shows it in the whole file (its line
// numbers and context), not between the two snippets the agent replaces;
// an edit whose old text the file does not hold once keeps the snippets.
func TestEditDiffSpansTheFile(t *testing.T) {
	e := newEnv(t, opts{})
	hello := filepath.Join(e.dir, "hello.txt")
	if err := os.WriteFile(hello, []byte("zero line\nfirst line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "whole")
	sides := func() (string, string) {
		t.Helper()
		tc := e.pendingTool(e.c, chat)
		if tc.Edits == nil {
			t.Fatalf("no proposed edits in %+v", tc)
		}
		for _, c := range tc.Edits.Items {
			if c.Before != nil && c.After != nil {
				b, err := e.c.c.ResourceRead(e.ctx, c.Before.Content.URI, "")
				if err != nil {
					t.Fatal(err)
				}
				a, err := e.c.c.ResourceRead(e.ctx, c.After.Content.URI, "")
				if err != nil {
					t.Fatal(err)
				}
				return string(b.Data), string(a.Data)
			}
		}
		t.Fatalf("no edit with two sides in %+v", tc.Edits.Items)
		return "", ""
	}
	e.prompt(e.c, chat, "t1", "selfedit")
	if b, a := sides(); b != "zero line\nfirst line\nsecond line\n" || a != "zero line\nFIRST line\nsecond line\n" {
		t.Fatalf("diff sides %q → %q, want the whole file", b, a)
	}
	e.decide(chat, "t1", false, "reject")
	e.finished(e.c, chat, "t1")

	if err := os.WriteFile(hello, []byte("first line\nfirst line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.prompt(e.c, chat, "t2", "selfedit")
	if b, a := sides(); b != "first" || a != "FIRST" {
		t.Fatalf("ambiguous edit: %q → %q, want the snippets", b, a)
	}
	e.decide(chat, "t2", false, "reject")
	e.finished(e.c, chat, "t2")
}

// A finished edit's diff under a path relative to the project (Claude
// Code's adapter 0.101; ACP wants absolute paths) still shows the whole
// file, so its hunk has the file's line numbers (the transcript said
// "@@ -1,6" where the approval prompt said "@@ -6,6").
func TestRelativeDiffPathIsTheSessionFile(t *testing.T) {
	e := newEnv(t, opts{})
	hello := filepath.Join(e.dir, "hello.txt")
	if err := os.WriteFile(hello, []byte("a\nb\nc\nd\nfirst line\ne\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "relative")
	e.prompt(e.c, chat, "t1", "selfedit relative")
	e.decide(chat, "t1", true, "allow")
	turn := e.finished(e.c, chat, "t1")
	var last *ahpwire.ToolResultContent
	for i, c := range toolCalls(turn.ResponseParts)[0].Content {
		if c.Type == ahpwire.ContentFileEdit {
			last = &toolCalls(turn.ResponseParts)[0].Content[i]
		}
	}
	if last == nil || last.Before == nil || last.Before.URI != fileURI(hello) {
		t.Fatalf("the last diff: %+v", last)
	}
	r, err := e.c.c.ResourceRead(e.ctx, last.Before.Content.URI, "")
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Data) != "a\nb\nc\nd\nfirst line\ne\n" {
		t.Fatalf("the diff's before is %q, not the whole file", r.Data)
	}
}

// Codex's apply_patch: the call comes in_progress with the whole file's
// diff, then a permission request that names only the file (locations, no
// content). The request's locations must not replace the diff: the
// pending confirmation shows it, the transcript keeps it after the
// approval, and the edit joins the changeset.
func TestPatchDiffSurvivesItsPermissionRequest(t *testing.T) {
	e := newEnv(t, opts{})
	hello := filepath.Join(e.dir, "hello.txt")
	if err := os.WriteFile(hello, []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chat := e.newSession(e.c, "patch")
	e.prompt(e.c, chat, "t1", "selfedit patch")
	tc := e.pendingTool(e.c, chat)
	if tc.Edits == nil || len(tc.Edits.Items) != 1 || tc.Edits.Items[0].After == nil {
		t.Fatalf("the pending confirmation shows no diff: %+v", tc)
	}
	if r, err := e.c.c.ResourceRead(e.ctx, tc.Edits.Items[0].After.Content.URI, ""); err != nil || string(r.Data) != "FIRST line\nsecond line\n" {
		t.Fatalf("the proposed side: %q %v", r.Data, err)
	}
	e.decide(chat, "t1", true, "allow")
	turn := e.finished(e.c, chat, "t1")
	var kinds []string
	for _, c := range toolCalls(turn.ResponseParts)[0].Content {
		kinds = append(kinds, string(c.Type))
	}
	if strings.Join(kinds, ",") != string(ahpwire.ContentFileEdit)+","+string(ahpwire.ContentText) {
		t.Fatalf("the finished call's content: %v, want its diff and its locations", kinds)
	}
	if cs := e.changeset(chat); cs["hello.txt"] != [2]string{"first line\nsecond line\n", "FIRST line\nsecond line\n"} {
		t.Fatalf("changeset: %q", cs)
	}
}
