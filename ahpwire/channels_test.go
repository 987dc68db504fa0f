package ahpwire

import (
	"encoding/json"
	"strings"
	"testing"
)

// channelSampleActions has one populated value per terminal and changeset
// action (used by TestEveryActionRoundTrips).
func channelSampleActions() []Action {
	file := ChangesetFile{ID: "file:///a", Edit: FileEdit{After: &FileEditSide{URI: "file:///a", Content: ContentRef{URI: "ahp-resource:/a"}}}, Reviewed: Ptr(true)}
	op := ChangesetOperation{ID: "pr", Label: "PR", Scopes: []string{"changeset"}, Status: OperationIdle}
	rng := &TextRange{Start: TextPosition{Line: 1}, End: TextPosition{Line: 2, Character: 3}}
	ann := Annotation{ID: "n1", TurnID: "t1", Origin: &AnnotationOrigin{Session: "ahp-session:/s", Chat: "ahp-chat:/c", TurnID: "t1"},
		Resource: "file:///a", Range: rng, Entries: []AnnotationEntry{{ID: "e1", Text: MarkdownText("**fix**"), Meta: AuthorMeta("user")}}}
	return []Action{
		&AnnotationsSet{Annotation: ann},
		&AnnotationsUpdated{AnnotationID: "n1", Resolved: Ptr(true), Range: rng, Resource: Ptr("file:///b"), TurnID: Ptr("t2")},
		&AnnotationsRemoved{AnnotationID: "n1"},
		&AnnotationsEntrySet{AnnotationID: "n1", Entry: AnnotationEntry{ID: "e2", Text: Plain("reply")}},
		&AnnotationsEntryRemoved{AnnotationID: "n1", EntryID: "e2"},
		&ResourceWatchChanged{Changes: ResourceChangeList{Items: []ResourceChange{{URI: "file:///a", Type: ResourceUpdated}}}},
		&SessionArtifactSet{Artifact: SessionArtifact{ID: "a1", Kind: "pullRequest", Title: "PR #7", URI: "https://example.com/pr/7",
			Raw: json.RawMessage(`{"id":"a1","kind":"pullRequest","title":"PR #7","uri":"https://example.com/pr/7"}`)}},
		&SessionArtifactRemoved{ID: "a1"},
		&SessionStateReplaced{State: SessionState{Provider: "demo", Title: "t", Lifecycle: LifecycleReady, Chats: []ChatSummary{}, ActiveClients: []SessionActiveClient{},
			Config: &ConfigState{Schema: json.RawMessage(`{"type":"object","properties":{}}`), Values: map[string]json.RawMessage{}}}},
		&TerminalData{Data: "\x1b[31mred\x1b[0m\r\n"},
		&TerminalInput{Data: "ls\r"},
		&TerminalResized{Cols: 100, Rows: 30},
		&TerminalClaimed{Claim: TerminalClaim{Kind: ClaimSession, Session: "ahp-session:/s", TurnID: "t", ToolCallID: "tc"}},
		&TerminalTitleChanged{Title: "bash"},
		&TerminalCwdChanged{Cwd: "file:///w"},
		&TerminalExited{ExitCode: Ptr[int64](2)},
		&TerminalCleared{},
		&TerminalCommandDetectionAvailable{},
		&TerminalCommandExecuted{CommandID: "c", CommandLine: "go test", Timestamp: 17},
		&TerminalCommandFinished{CommandID: "c", ExitCode: Ptr[int64](0), DurationMs: Ptr[int64](5)},
		&ChangesetStatusChanged{Status: ChangesetError, Error: &ErrorInfo{ErrorType: "git", Message: "m"}},
		&ChangesetFileSet{File: file},
		&ChangesetFileRemoved{FileID: "file:///a"},
		&ChangesetContentChanged{Files: []ChangesetFile{file}, Operations: []ChangesetOperation{op}},
		&ChangesetOperationsChanged{Operations: []ChangesetOperation{op}},
		&ChangesetOperationStatusChanged{OperationID: "pr", Status: OperationRunning},
		&ChangesetCleared{},
		&ChangesetFilesReviewChanged{Files: []string{"file:///a"}, Reviewed: true},
	}
}

func TestTerminalStateRoundTrip(t *testing.T) {
	raw := `{"title":"bash","cols":80,"content":[{"type":"unclassified","value":""},{"type":"command","commandId":"c","commandLine":"x","output":"","timestamp":1,"isComplete":false}],"claim":{"kind":"client","clientId":"c1"}}`
	s, err := DecodeTerminalState([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	if string(b) != raw {
		t.Fatalf("got  %s\nwant %s", b, raw)
	}
	if _, err := DecodeTerminalState([]byte(`{"content":[{"type":"command","output":5}]}`)); err == nil || !strings.Contains(err.Error(), "terminal") {
		t.Fatalf("malformed part: err %v", err)
	}
}

func TestFileEditKind(t *testing.T) {
	side := func(u string) *FileEditSide { return &FileEditSide{URI: u} }
	for _, c := range []struct {
		e    FileEdit
		want string
	}{
		{FileEdit{After: side("a")}, "created"},
		{FileEdit{Before: side("a")}, "deleted"},
		{FileEdit{Before: side("a"), After: side("b")}, "renamed"},
		{FileEdit{Before: side("a"), After: side("a")}, "modified"},
	} {
		if got := c.e.Kind(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.e, got, c.want)
		}
	}
}

// An AHP 1.1 ResourceArtifact has no id: it is keyed by its uri, and its
// label and displayKind are its title and kind; artifactRemoved may name
// it by uri.
func TestResourceArtifactKeyedByURI(t *testing.T) {
	var a SessionArtifact
	raw := `{"type":"resource","uri":"https://example.invalid/pr/1","label":"PR 1","displayKind":"pullRequest","relations":[{"kind":"created"}]}`
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	if a.ID != a.URI || a.Title != "PR 1" || a.Kind != "pullRequest" || len(a.Relations) != 1 {
		t.Fatalf("%+v", a)
	}
	var rm SessionArtifactRemoved
	if err := json.Unmarshal([]byte(`{"uri":"https://example.invalid/pr/1"}`), &rm); err != nil || rm.Key() != a.ID {
		t.Fatalf("removed key %q (err %v)", rm.Key(), err)
	}
}
