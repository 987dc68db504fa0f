package demo

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestToolsApproved(t *testing.T) {
	dir := projectDir(t)
	rec, err := runTurn(t, testAgent(dir), "t1", "/demo tools", false, policy{edit: true, command: true, result: true, optionIDs: true}.decider())
	if err != nil {
		t.Fatal(err)
	}
	s := checkSequence(t, "t1", rec.actions, nil)
	want := map[string]string{
		"t1.tc-list_files": ahpwire.ToolCompleted, "t1.tc-read_file": ahpwire.ToolCompleted,
		"t1.tc-edit_file": ahpwire.ToolCompleted, "t1.tc-run_command": ahpwire.ToolCompleted,
	}
	if !mapsEqual(s.tools, want) {
		t.Fatalf("tool states %v, want %v", s.tools, want)
	}
	// read_file really read README.md.
	var read, edit, cmd *ahpwire.ChatToolCallComplete
	for _, a := range rec.actions {
		if c, ok := a.(*ahpwire.ChatToolCallComplete); ok {
			switch c.ToolCallID {
			case "t1.tc-read_file":
				read = c
			case "t1.tc-edit_file":
				edit = c
			case "t1.tc-run_command":
				cmd = c
			}
		}
	}
	if read == nil || read.Result.Content[0].Text != "# Widget\n\nA tiny widget service.\n\nSee docs/ for more.\n" {
		t.Fatalf("read_file result %+v", read)
	}
	// The edit carried a fileEdit diff both when asking and in the result.
	var editReady *ahpwire.ChatToolCallReady
	for _, a := range rec.actions {
		if r, ok := a.(*ahpwire.ChatToolCallReady); ok && r.ToolCallID == "t1.tc-edit_file" {
			editReady = r
		}
	}
	if editReady == nil || editReady.Confirmed != "" || editReady.Edits == nil || len(editReady.Edits.Items) != 1 || editReady.ConfirmationTitle == nil {
		t.Fatalf("edit ready %+v", editReady)
	}
	fe := editReady.Edits.Items[0]
	if got := decodeData(t, fe.After.Content.URI); !strings.HasPrefix(got, "<!-- Reviewed by the ahptui demo agent") || !strings.HasSuffix(got, "# Widget\n\nA tiny widget service.\n\nSee docs/ for more.\n") {
		t.Errorf("edit after side = %q", got)
	}
	if !strings.HasPrefix(fe.Before.URI, "file:///") || !strings.HasSuffix(fe.Before.URI, "/README.md") || *fe.Diff.Added != 1 || *fe.Diff.Removed != 0 {
		t.Errorf("file edit = %+v", fe)
	}
	if edit == nil || !edit.Result.Success || edit.Result.Content[0].Type != ahpwire.ContentFileEdit ||
		!strings.Contains(edit.Result.Content[1].Text, "+++ b/README.md\n@@ -1,3 +1,4 @@\n+<!-- Reviewed") {
		t.Fatalf("edit result %+v", edit)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "README.md")); !strings.HasPrefix(string(got), "# Widget") {
		t.Fatal("the simulated edit changed the file")
	}
	// The command streamed live output and asked for result confirmation.
	if count(rec.actions, ahpwire.ActionChatToolCallContentChanged) < 2 || cmd == nil || !cmd.RequiresResultConfirmation ||
		!strings.Contains(cmd.Result.Content[0].Text, "PASS") {
		t.Fatalf("command result %+v", cmd)
	}
	md := markdownText(rec.actions)
	for _, want := range []string{"`go test ./...`", "| `edit_file` | approved", "| `run_command` | ran, output accepted", "All tests pass"} {
		if !strings.Contains(md, want) {
			t.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
}

func decodeData(t *testing.T, uri string) string {
	t.Helper()
	const prefix = "data:text/plain;charset=utf-8;base64,"
	if !strings.HasPrefix(uri, prefix) {
		t.Fatalf("not a data URI: %q", uri)
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, prefix))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestToolsDenied(t *testing.T) {
	tests := map[string]struct {
		p        policy
		states   map[string]string
		mdWants  []string
		mdAvoids []string
	}{
		"deny both": {
			p:        policy{},
			states:   map[string]string{"t1.tc-edit_file": ahpwire.ToolCancelled, "t1.tc-run_command": ahpwire.ToolCancelled},
			mdWants:  []string{"I won't edit `README.md`", "I won't run `go test ./...`", "| `edit_file` | denied (not now) |", "| `run_command` | denied (not now) |"},
			mdAvoids: []string{"All tests pass", "the note is in"},
		},
		"skip edit, run, reject output": {
			p:        policy{command: true, reason: ahpwire.CancelSkipped},
			states:   map[string]string{"t1.tc-edit_file": ahpwire.ToolCancelled, "t1.tc-run_command": ahpwire.ToolCancelled},
			mdWants:  []string{"| `edit_file` | skipped (not now) |", "disregard that output", "| `run_command` | ran, output rejected |"},
			mdAvoids: []string{"All tests pass"},
		},
		"edit, deny command": {
			p:       policy{edit: true, optionIDs: true},
			states:  map[string]string{"t1.tc-edit_file": ahpwire.ToolCompleted, "t1.tc-run_command": ahpwire.ToolCancelled},
			mdWants: []string{"the note is in", "I won't run"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rec, err := runTurn(t, testAgent(projectDir(t)), "t1", "/demo tools", false, tc.p.decider())
			if err != nil {
				t.Fatal(err)
			}
			s := checkSequence(t, "t1", rec.actions, nil)
			for id, st := range tc.states {
				if s.tools[id] != st {
					t.Errorf("%s is %s, want %s", id, s.tools[id], st)
				}
			}
			md := markdownText(rec.actions)
			for _, w := range tc.mdWants {
				if !strings.Contains(md, w) {
					t.Errorf("answer lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.mdAvoids {
				if strings.Contains(md, w) {
					t.Errorf("answer has %q:\n%s", w, md)
				}
			}
		})
	}
}

func TestToolsWithUnreadableTarget(t *testing.T) {
	// No readable file: read_file fails, the edit becomes a new file.
	dir := t.TempDir()
	rec, err := runTurn(t, testAgent(dir), "t1", "/demo tools", false, approveAll)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, "t1", rec.actions, nil)
	md := markdownText(rec.actions)
	if !strings.Contains(md, "| `read_file` | failed: read_file: stat \"README.md\": no such file") || !strings.Contains(md, "`NOTES.md`") || !strings.Contains(md, "`make test`") {
		t.Errorf("answer:\n%s", md)
	}
}
