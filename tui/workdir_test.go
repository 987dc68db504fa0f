package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

func TestDisplayDir(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/x":                    "/tmp/x",
		"file:///tmp/x":             "/tmp/x",
		"FILE:///tmp/a%20b":         "/tmp/a b",
		"file://localhost/srv/repo": "/srv/repo",
		"file://other/srv/repo":     "file://other/srv/repo",
		"vscode-remote://h/x":       "vscode-remote://h/x",
		"":                          "",
	} {
		if got := app.DisplayDir(in); got != want {
			t.Errorf("displayDir(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPickerShowsWorkingDirAsAPath: the demo's host keeps file: URIs,
// `serve` plain paths; the picker shows both as /tmp/x.
func TestPickerShowsWorkingDirAsAPath(t *testing.T) {
	for _, dir := range []string{"file:///tmp/x", "/tmp/x"} {
		m, _ := newTestModel(t, 100, 10)
		s := testSessions()[:1]
		s[0].WorkingDirectories = []string{dir}
		m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: s}}})
		v := viewText(m)
		if !strings.Contains(v, "· /tmp/x") || strings.Contains(v, "file:") {
			t.Errorf("%s shown as:\n%s", dir, v)
		}
	}
}
