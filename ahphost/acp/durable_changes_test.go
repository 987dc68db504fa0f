package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestDurableHostChangesetAfterRestart: the files a session changed before
// a host restart stay in its changeset when the agent changes others after
// it (the bridge's record of the changes is gone with the old host: it
// starts again from the host's changeset), with their reviewed marks; a
// file changed on both sides of the restart keeps its first before (and
// loses its reviewed mark: it changed since).
func TestDurableHostChangesetAfterRestart(t *testing.T) {
	state, agentState, hostState := t.TempDir(), t.TempDir(), t.TempDir()
	env := []string{"FAKEACP_LOAD=1", "FAKEACP_RESUME=1", "FAKEACP_STATE=" + agentState}
	e := newEnv(t, opts{env: env, state: state, hostState: hostState})
	if err := os.WriteFile(filepath.Join(e.dir, "hello.txt"), []byte("first line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	session, chat := e.newSession(e.c, "changes")
	e.run(e.c, chat, "t1", "diff")
	cs := e.chatState(e.c, chat).Changesets[0].URITemplate
	files := changesetFiles(t, e, cs, 1)
	if _, err := e.c.c.Dispatch(e.ctx, cs, &ahpwire.ChangesetFilesReviewChanged{Files: []string{files[0].ID}, Reviewed: true}); err != nil {
		t.Fatal(err)
	}
	e.eventually("the reviewed mark", func() bool { return changesetFiles(t, e, cs, 1)[0].IsReviewed() })
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := newEnv(t, opts{env: env, state: state, hostState: hostState, dir: e.dir})
	e2.open(e2.c, session)
	e2.run(e2.c, chat, "t2", "write other.txt")
	files = changesetFiles(t, e2, cs, 2)
	byPath := map[string]ahpwire.ChangesetFile{}
	for _, f := range files {
		byPath[filepath.Base(f.Edit.Path())] = f
	}
	if !byPath["hello.txt"].IsReviewed() || byPath["other.txt"].ID == "" {
		t.Fatalf("changeset after the restart: %+v", files)
	}
	e2.run(e2.c, chat, "t3", "diff")
	files = changesetFiles(t, e2, cs, 2)
	for _, f := range files {
		if filepath.Base(f.Edit.Path()) != "hello.txt" {
			continue
		}
		r, err := e2.c.c.ResourceRead(e2.ctx, f.Edit.Before.Content.URI, "")
		if err != nil || string(r.Data) != "first line\n" {
			t.Fatalf("hello.txt's before after a second edit: %q, %v", r.Data, err)
		}
		if f.IsReviewed() {
			t.Fatal("hello.txt changed again and is still marked reviewed")
		}
	}
}

// changesetFiles returns the files of changeset cs once it has n.
func changesetFiles(t *testing.T, e *env, cs string, n int) []ahpwire.ChangesetFile {
	t.Helper()
	var st ahpwire.ChangesetState
	e.eventually("the changeset's files", func() bool {
		snap, err := e.c.c.Subscribe(e.ctx, cs, nil)
		if err != nil || json.Unmarshal(snap.State, &st) != nil {
			return false
		}
		return len(st.Files) == n
	})
	return st.Files
}
