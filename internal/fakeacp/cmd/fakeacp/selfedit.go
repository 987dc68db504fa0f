package main

import (
	"os"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// selfEdit edits hello.txt ("first" → "FIRST") as Claude Code's Edit does:
// the agent writes the file itself, not through fs/write_text_file. The
// tool call shows the replaced snippet as its diff and asks permission;
// once written, an update carries Claude Code's PostToolUse response
// (_meta.claudeCode.toolResponse with the whole originalFile) unless arg
// is "nometa" or "askonly" (which shows the diff only in the permission
// request). "selfedit late" asks nothing and writes the file before
// it announces the call (an auto-accepted edit that overtook its
// tool_call); "selfedit relative" ends with the diff again under a path
// relative to the project (Claude Code's adapter 0.101 does); "selfedit
// patch" is Codex's apply_patch: the call in_progress with the whole
// file's diff, then a permission request that names only the file (its
// locations, no content). "selfwrite
// NAME" creates NAME the same way (Write).
func (r *run) selfEdit(word, arg string) (sdk.StopReason, error) {
	id := sdk.ToolCallId("t-self")
	var p, oldSnip, newSnip, title string
	var content func(before string) string
	if word == "selfwrite" {
		p, title = r.path(arg), "Write "+arg
		newSnip = "made by the agent\n"
		content = func(string) string { return newSnip }
	} else {
		p, title = r.path("hello.txt"), "Edit hello.txt"
		oldSnip, newSnip = "first", "FIRST"
		content = func(before string) string { return strings.Replace(before, oldSnip, newSnip, 1) }
	}
	var oldPtr *string
	if oldSnip != "" {
		oldPtr = &oldSnip
	}
	diff := []sdk.ToolCallContent{{Diff: &sdk.ToolCallContentDiff{Path: p, OldText: oldPtr, NewText: newSnip, Type: "diff"}}}
	kind := sdk.ToolKindEdit
	if arg == "late" {
		return r.writeSelf(id, p, content, arg, func() {
			r.send(sdk.StartToolCall(id, title, sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartContent(diff)))
		})
	}
	ask := sdk.ToolCallUpdate{ToolCallId: id, Title: &title, Kind: &kind, Content: diff}
	switch arg {
	case "askonly": // the diff only in the permission request
		r.send(sdk.StartToolCall(id, title, sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusPending)))
	case "patch": // the whole file's diff in_progress, a request naming only the file
		before, _ := os.ReadFile(p)
		whole := string(before)
		diff = []sdk.ToolCallContent{{Diff: &sdk.ToolCallContentDiff{Path: p, OldText: &whole, NewText: content(whole), Type: "diff"}}}
		r.send(sdk.StartToolCall(id, "Editing files", sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartContent(diff)))
		pending, edit := sdk.ToolCallStatusPending, "Edit files"
		ask = sdk.ToolCallUpdate{ToolCallId: id, Title: &edit, Kind: &kind, Status: &pending, Locations: []sdk.ToolCallLocation{{Path: p}}}
	default:
		r.send(sdk.StartToolCall(id, title, sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusPending),
			sdk.WithStartContent(diff), sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: p}})))
	}
	res, err := r.f.conn.RequestPermission(r.ctx, sdk.RequestPermissionRequest{
		SessionId: r.id,
		ToolCall:  ask,
		Options: []sdk.PermissionOption{
			{OptionId: "allow", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "reject", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil {
		return "", err
	}
	if res.Outcome.Cancelled != nil {
		return sdk.StopReasonCancelled, nil
	}
	if res.Outcome.Selected.OptionId != "allow" {
		r.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
		r.say("not edited")
		return sdk.StopReasonEndTurn, nil
	}
	return r.writeSelf(id, p, content, arg, func() {})
}

// writeSelf writes the file, calls written, reports the tool response
// (unless arg is "nometa") and completes the call.
func (r *run) writeSelf(id sdk.ToolCallId, p string, content func(string) string, arg string, written func()) (sdk.StopReason, error) {
	var original any // null: created
	before, err := os.ReadFile(p)
	if err == nil {
		original = string(before)
	}
	if err := os.WriteFile(p, []byte(content(string(before))), 0o644); err != nil {
		r.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
		r.say("write failed: " + err.Error())
		return sdk.StopReasonEndTurn, nil
	}
	written()
	if arg != "nometa" && arg != "askonly" && arg != "relative" && arg != "patch" {
		r.send(sdk.SessionUpdate{ToolCallUpdate: &sdk.SessionToolCallUpdate{ToolCallId: id, Meta: map[string]any{
			"claudeCode": map[string]any{"toolName": "Edit", "toolResponse": map[string]any{"filePath": p, "originalFile": original}}}}})
	}
	if arg == "relative" {
		old := "first"
		r.send(sdk.UpdateToolCall(id, sdk.WithUpdateContent([]sdk.ToolCallContent{{Diff: &sdk.ToolCallContentDiff{
			Path: "hello.txt", OldText: &old, NewText: "FIRST", Type: "diff"}}})))
	}
	r.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	r.say("edited")
	return sdk.StopReasonEndTurn, nil
}
