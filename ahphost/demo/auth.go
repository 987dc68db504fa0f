package demo

import "github.com/ahptui/ahptui/ahpwire"

// DemoResourceURI identifies the demo's optional protected resource.
const DemoResourceURI = "https://demo-api.ahptui.invalid"

// DemoResource is the RFC 9728 metadata of the demo's protected resource:
// optional (the agent works without it), needed only by /demo auth. Any
// non-empty token is accepted; the demo never shows or logs it.
func DemoResource() ahpwire.ProtectedResourceMetadata {
	return ahpwire.ProtectedResourceMetadata{
		Resource:              DemoResourceURI,
		ResourceName:          "Demo API",
		AuthorizationServers:  []string{"https://login.demo-api.ahptui.invalid"},
		ScopesSupported:       []string{"demo.read"},
		ResourceDocumentation: "https://demo-api.ahptui.invalid/docs — this is the built-in demo: any non-empty token (for example `demo`) signs you in.",
		Required:              ahpwire.Ptr(false),
	}
}

// auth runs "/demo auth": a tool call that needs the Demo API token. It
// waits for chat/toolCallAuthResolved (the host dispatches it after a
// client's `authenticate`) or for a client giving up (chat/toolCallComplete).
func (r *run) auth() error {
	if err := r.streamMarkdown("Calling the Demo API, which needs you to sign in.\n\n"); err != nil {
		return err
	}
	spec := toolSpec{
		id: r.toolCallID("demo_api"), name: "demo_api", display: "Demo API",
		intention:  "Fetch the user's profile from the Demo API",
		input:      toolInputJSON(kv{"endpoint", "/me"}),
		invocation: "Calling the Demo API `/me`",
		// auth-required applies to MCP tools only.
		contributor: &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "demo-api"},
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatToolCallAuthRequired{TurnID: r.t.TurnID, ToolCallID: spec.id, Auth: ahpwire.McpAuthRequirement{
		Reason: "required", Resource: DemoResource(), RequiredScopes: []string{"demo.read"},
		Description: "Sign in to the Demo API to continue (any non-empty token works in the demo).",
	}}); err != nil {
		return err
	}
	a, err := r.await(func(a ahpwire.Action) bool {
		switch a := a.(type) {
		case *ahpwire.ChatToolCallAuthResolved:
			return a.ToolCallID == spec.id
		case *ahpwire.ChatToolCallComplete:
			return a.ToolCallID == spec.id
		}
		return false
	})
	if err != nil {
		return err
	}
	if _, gaveUp := a.(*ahpwire.ChatToolCallComplete); gaveUp {
		return r.answerOnly("No token, so I could not call the Demo API. Run `/demo auth` again when you want to sign in.\n")
	}
	out := "{\"user\":\"demo-user\",\"plan\":\"free\"}"
	r.outBytes += len(out)
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: spec.id, Result: ahpwire.ToolCallResult{
		Success: true, PastTenseMessage: ahpwire.MarkdownText("Called the Demo API `/me`"),
		Content: []ahpwire.ToolResultContent{ahpwire.TextContent(out)},
	}}); err != nil {
		return err
	}
	return r.answerOnly("Signed in. The Demo API says you are `demo-user` on the free plan.\n")
}
