package main

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// scopeMeta is the _meta key under which the fake agent's elicitations
// carry their scope: the SDK's request type has no sessionId/toolCallId
// fields, so scopeWriter moves them to the top level of the params, where
// real agents (Claude Code's adapter) put them.
const scopeMeta = "fakeacp/scope"

// elicitSupport is what the client advertised at initialize (form, url).
var elicitSupport struct {
	sync.Mutex
	form, url bool
}

// noteElicitation records the client's elicitation capabilities.
func noteElicitation(c sdk.ClientCapabilities) {
	elicitSupport.Lock()
	defer elicitSupport.Unlock()
	if e := c.Elicitation; e != nil {
		elicitSupport.form, elicitSupport.url = e.Form != nil, e.Url != nil
	}
}

// ask runs "ask": a form elicitation shaped as Claude Code's adapter
// shapes AskUserQuestion (a titled oneOf enum plus its "_custom" free-text
// field), with a boolean and a bounded integer; "ask url" a URL
// elicitation. It says what came back: "accepted: {json}", "declined" or
// "cancelled".
func (r *run) ask(arg string) (sdk.StopReason, error) {
	elicitSupport.Lock()
	form, url := elicitSupport.form, elicitSupport.url
	elicitSupport.Unlock()
	scope := map[string]any{scopeMeta: map[string]any{"sessionId": string(r.id), "toolCallId": "t-ask"}}
	var req sdk.UnstableCreateElicitationRequest
	switch {
	case arg == "url" && url:
		req = sdk.UnstableCreateElicitationRequest{Url: &sdk.UnstableCreateElicitationUrl{
			Meta: scope, ElicitationId: "e-1", Message: "Sign in to the fake service", Mode: "url",
			Url: "https://example.com/signin?state=1"}}
	case arg != "url" && form:
		title := "Pick a colour"
		schema := sdk.UnstableElicitationSchema{
			Type: "object",
			Properties: map[string]any{
				"question_0": map[string]any{"type": "string", "title": "Colour", "oneOf": []any{
					map[string]any{"const": "Red", "title": "Red", "description": "warm"},
					map[string]any{"const": "Blue", "title": "Blue"},
				}},
				"question_0_custom": map[string]any{"type": "string", "title": "Other",
					"description": "Type your own answer (optional)."},
				"confirm": map[string]any{"type": "boolean", "title": "Sure?", "default": true},
				"count":   map[string]any{"type": "integer", "title": "How many", "minimum": 1, "maximum": 9},
			},
			Required: []string{"confirm"},
			Title:    &title,
		}
		req = sdk.UnstableCreateElicitationRequest{Form: &sdk.UnstableCreateElicitationForm{
			Meta: scope, Message: "Which colour should the button be?", Mode: "form", RequestedSchema: schema}}
	default:
		r.say("no elicitation support")
		return sdk.StopReasonEndTurn, nil
	}
	res, err := r.f.conn.UnstableCreateElicitation(r.ctx, req)
	if err != nil {
		r.say("elicitation error: " + err.Error())
		return sdk.StopReasonEndTurn, nil
	}
	switch {
	case res.Accept != nil:
		keys := make([]string, 0, len(res.Accept.Content))
		for k := range res.Accept.Content {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			v, _ := json.Marshal(res.Accept.Content[k])
			b.WriteString(" " + k + "=" + string(v))
		}
		r.say("accepted:" + b.String())
	case res.Decline != nil:
		r.say("declined")
	default:
		r.say("cancelled")
	}
	return sdk.StopReasonEndTurn, nil
}

// scopeWriter is the fake agent's stdout: an elicitation/create request
// gets its _meta scope as top-level sessionId/toolCallId (one message per
// Write, as the SDK writes).
type scopeWriter struct{ w io.Writer }

func (s scopeWriter) Write(b []byte) (int, error) {
	out := b
	if bytes.Contains(b, []byte(`"elicitation/create"`)) && bytes.Contains(b, []byte(scopeMeta)) {
		var msg map[string]json.RawMessage
		var params map[string]json.RawMessage
		var meta map[string]json.RawMessage
		var sc map[string]json.RawMessage
		if json.Unmarshal(b, &msg) == nil && json.Unmarshal(msg["params"], &params) == nil &&
			json.Unmarshal(params["_meta"], &meta) == nil && json.Unmarshal(meta[scopeMeta], &sc) == nil {
			for k, v := range sc {
				params[k] = v
			}
			delete(params, "_meta")
			msg["params"], _ = json.Marshal(params)
			if nb, err := json.Marshal(msg); err == nil {
				out = append(nb, '\n')
			}
		}
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// airOn records whether the client advertised AIR's sessionFailure
// capability (the _meta Claude Code's adapter reads).
var airOn struct {
	sync.Mutex
	on bool
}

// noteAIR records the client's AIR capabilities.
func noteAIR(c sdk.ClientCapabilities) {
	jb, _ := c.Meta["jetbrains"].(map[string]any)
	air, _ := jb["air"].(map[string]any)
	caps, _ := air["capabilities"].([]any)
	airOn.Lock()
	defer airOn.Unlock()
	for _, x := range caps {
		if x == "sessionFailure" {
			airOn.on = true
		}
	}
}

// failure reports a session failure as Claude Code's adapter does (a
// session_info_update with AIR's _meta).
func (r *run) failure(severity, title string) {
	r.send(sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{Meta: map[string]any{
		"jetbrains": map[string]any{"air": map[string]any{"sessionFailure": map[string]any{
			"id": string(r.id) + ":f", "revision": 1, "category": "service", "severity": severity, "title": title, "actions": []any{},
		}}}}}})
}

// air runs "airretry" (a retry warning, a pause, then the answer) and
// "airdown" (an error report, then the prompt fails with no detail), as
// Claude Code's adapter does for a client with AIR's sessionFailure.
func (r *run) air(word string) (sdk.StopReason, error) {
	airOn.Lock()
	on := airOn.on
	airOn.Unlock()
	if !on {
		r.say("no AIR session failures")
		return sdk.StopReasonEndTurn, nil
	}
	if word == "airdown" {
		r.failure("error", "Claude's API is unavailable (529 overloaded).")
		return "", &sdk.RequestError{Code: -32603, Message: "Internal error"}
	}
	r.failure("warning", "Retrying Fake, attempt 1 of 3.")
	select {
	case <-time.After(300 * time.Millisecond):
	case <-r.ctx.Done():
		return sdk.StopReasonCancelled, nil
	}
	r.say("recovered after a retry")
	return sdk.StopReasonEndTurn, nil
}
