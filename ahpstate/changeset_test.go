package ahpstate

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func csFile(id string) ahpwire.ChangesetFile {
	return ahpwire.ChangesetFile{ID: id, Edit: ahpwire.FileEdit{After: &ahpwire.FileEditSide{URI: id, Content: ahpwire.ContentRef{URI: "c:" + id}}}}
}

func ids(s ahpwire.ChangesetState) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.ID)
	}
	return out
}

func TestChangesetFileLifecycle(t *testing.T) {
	s0 := ahpwire.ChangesetState{Status: ahpwire.ChangesetComputing}
	s1 := ReduceChangeset(s0, &ahpwire.ChangesetFileSet{File: csFile("a")})
	s2 := ReduceChangeset(s1, &ahpwire.ChangesetFileSet{File: csFile("b")})
	rev := csFile("a")
	rev.Reviewed = ahpwire.Ptr(true)
	s3 := ReduceChangeset(s2, &ahpwire.ChangesetFileSet{File: rev})
	if got := ids(s3); len(got) != 2 || got[0] != "a" || !s3.Files[0].IsReviewed() || s2.Files[0].IsReviewed() {
		t.Fatalf("upsert: %v reviewed=%v (old %v)", got, s3.Files[0].IsReviewed(), s2.Files[0].IsReviewed())
	}
	s4 := ReduceChangeset(s3, &ahpwire.ChangesetFileRemoved{FileID: "a"})
	if got := ids(s4); len(got) != 1 || got[0] != "b" || len(s3.Files) != 2 {
		t.Fatalf("remove: %v", got)
	}
	if s5 := ReduceChangeset(s4, &ahpwire.ChangesetFileRemoved{FileID: "zz"}); len(s5.Files) != 1 {
		t.Fatal("removing an unknown id changed the files")
	}
	s6 := ReduceChangeset(s4, &ahpwire.ChangesetContentChanged{Files: []ahpwire.ChangesetFile{csFile("x"), csFile("y")},
		Error: &ahpwire.ErrorInfo{ErrorType: "git", Message: "m"}})
	if got := ids(s6); len(got) != 2 || got[0] != "x" || s6.Error == nil {
		t.Fatalf("content changed: %v err=%v", got, s6.Error)
	}
	s7 := ReduceChangeset(s6, &ahpwire.ChangesetCleared{})
	if len(s7.Files) != 0 || len(s6.Files) != 2 {
		t.Fatal("cleared")
	}
	s8 := ReduceChangeset(s7, &ahpwire.ChangesetStatusChanged{Status: ahpwire.ChangesetError, Error: &ahpwire.ErrorInfo{ErrorType: "e", Message: "boom"}})
	if s8.Error == nil || s8.Status != ahpwire.ChangesetError {
		t.Fatal("error status")
	}
}
