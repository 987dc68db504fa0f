package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

// TestEditNamedRelativeToWorkingDirectory: a file edit in the transcript
// names its file relative to the session's working directory (as Claude
// Code does), and follows the directory when the session's changes.
func TestEditNamedRelativeToWorkingDirectory(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	ss := ahpwire.SessionState{Provider: "demo", Title: "edits", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}},
		WorkingDirectories: []string{"file:///home/me/proj"}}
	m = send(t, m, snapshotEvent(t, testSession, ss))
	edit := ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "edit", DisplayName: "Edit",
		InvocationMessage: ahpwire.PlainPtr("Edit app.go"), Confirmed: ahpwire.ConfirmedNotNeeded,
		Content: []ahpwire.ToolResultContent{{Type: ahpwire.ContentFileEdit,
			Before: &ahpwire.FileEditSide{URI: "file:///home/me/proj/cmd/app.go", Content: ahpwire.ContentRef{URI: "data:,a%0A"}},
			After:  &ahpwire.FileEditSide{URI: "file:///home/me/proj/cmd/app.go", Content: ahpwire.ContentRef{URI: "data:,b%0A"}}}},
	}}
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, activeTurn(edit))))
	v := viewText(m)
	if !strings.Contains(v, "cmd/app.go (+1 −1)") || strings.Contains(v, "file:///home/me/proj") {
		t.Fatalf("edit not named relative to the working directory:\n%s", v)
	}
	m = sessionEnvelope(t, m, testSession, 2, &ahpwire.SessionWorkingDirectoryReplaced{Directory: "file:///home/me/proj", Replacement: "file:///home/me/proj/cmd"})
	if v := viewText(m); !strings.Contains(v, "app.go (+1 −1)") || strings.Contains(v, "cmd/app.go") {
		t.Fatalf("not redrawn for the new working directory:\n%s", v)
	}
}
