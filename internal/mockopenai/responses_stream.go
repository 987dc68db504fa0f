package mockopenai

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// responsesUsage is the token usage every Responses reply reports.
func responsesUsage() map[string]any {
	return map[string]any{"input_tokens": 20, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 30}
}

// responseItems are a reply's output items, whole: the message, then
// the call (ids from id).
func responseItems(rep Reply, call *RCall, id string) []map[string]any {
	var out []map[string]any
	if rep.Text != "" {
		out = append(out, map[string]any{"id": "msg_" + id, "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}})
	}
	if call != nil {
		item := map[string]any{"id": "fc_" + id, "call_id": "call_" + id, "name": call.Name, "status": "completed"}
		if call.Custom {
			item["type"], item["input"] = "custom_tool_call", call.Input
		} else {
			args, _ := json.Marshal(call.Args)
			item["type"], item["arguments"] = "function_call", string(args)
		}
		out = append(out, item)
	}
	return out
}

// responseObject is the whole response: what a request without stream
// gets, and what response.completed carries.
func responseObject(model, id, status string, output []map[string]any) map[string]any {
	o := map[string]any{"id": "resp_" + id, "object": "response", "created_at": 0, "status": status, "model": model, "output": output}
	if status == "completed" {
		o["usage"] = responsesUsage()
	}
	return o
}

// streamResponses writes a reply as the Responses API's server-sent
// events: response.created; per output item output_item.added, its
// deltas (output_text.delta a word at a time, slowly for "slow";
// function_call_arguments.delta or custom_tool_call_input.delta) and
// output_item.done; response.completed. It stops when ctx ends.
func streamResponses(sse *mockllm.SSE, model, id string, rep Reply, call *RCall) {
	seq := 0
	send := func(event string, data map[string]any) bool {
		data["type"], data["sequence_number"] = event, seq
		seq++
		b, _ := json.Marshal(data)
		return sse.Send(event, b)
	}
	if !send("response.created", map[string]any{"response": responseObject(model, id, "in_progress", []map[string]any{})}) {
		return
	}
	items := responseItems(rep, call, id)
	for i, item := range items {
		start := map[string]any{}
		for k, v := range item {
			start[k] = v
		}
		start["status"] = "in_progress"
		if !send("response.output_item.added", map[string]any{"output_index": i, "item": start}) ||
			!streamItem(sse, send, i, item, rep.Delay) ||
			!send("response.output_item.done", map[string]any{"output_index": i, "item": item}) {
			return
		}
	}
	send("response.completed", map[string]any{"response": responseObject(model, id, "completed", items)})
}

// streamItem writes the deltas of one output item.
func streamItem(sse *mockllm.SSE, send func(string, map[string]any) bool, i int, item map[string]any, delay time.Duration) bool {
	at := map[string]any{"item_id": item["id"], "output_index": i}
	with := func(k string, v any) map[string]any {
		m := map[string]any{k: v}
		for k, v := range at {
			m[k] = v
		}
		return m
	}
	switch item["type"] {
	case "function_call":
		return send("response.function_call_arguments.delta", with("delta", item["arguments"])) &&
			send("response.function_call_arguments.done", with("arguments", item["arguments"]))
	case "custom_tool_call":
		return send("response.custom_tool_call_input.delta", with("delta", item["input"])) &&
			send("response.custom_tool_call_input.done", with("input", item["input"]))
	}
	text := item["content"].([]any)[0].(map[string]any)["text"].(string)
	at["content_index"] = 0
	for _, wd := range strings.SplitAfter(text, " ") {
		if !sse.Pause(delay) || (wd != "" && !send("response.output_text.delta", with("delta", wd))) {
			return false
		}
	}
	return send("response.output_text.done", with("text", text))
}
