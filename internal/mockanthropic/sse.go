package mockanthropic

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// usage is the token usage every reply reports.
func usage(out int) map[string]any {
	return map[string]any{"input_tokens": 25, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// wireBlock is a reply block as the API's non-streamed content.
func wireBlock(b Block) map[string]any {
	switch b.Type {
	case "thinking":
		return map[string]any{"type": "thinking", "thinking": b.Text, "signature": "mock-signature"}
	case "tool_use":
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": b.Input}
	}
	return map[string]any{"type": "text", "text": b.Text}
}

// message is a whole reply as one non-streamed message.
func message(model string, rep Reply) map[string]any {
	content := make([]any, len(rep.Blocks))
	for i, b := range rep.Blocks {
		content[i] = wireBlock(b)
	}
	return map[string]any{"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": rep.StopReason, "stop_sequence": nil, "usage": usage(outTokens(rep))}
}

func outTokens(rep Reply) int {
	n := 1
	for _, b := range rep.Blocks {
		n += len(b.Text)/4 + 1
	}
	return n
}

// stream writes a reply as the API's server-sent events: message_start,
// per block content_block_start / _delta… / _stop, message_delta,
// message_stop. It stops when ctx ends (the client went away).
func stream(ctx context.Context, w http.ResponseWriter, model string, rep Reply) {
	w.Header().Set("request-id", "req_mock")
	sse := mockllm.NewSSE(ctx, w)
	send := func(event string, data map[string]any) bool {
		data["type"] = event
		b, _ := json.Marshal(data)
		return sse.Send(event, b)
	}
	start := map[string]any{"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(1)}
	if !send("message_start", map[string]any{"message": start}) || !send("ping", map[string]any{}) {
		return
	}
	for i, b := range rep.Blocks {
		if !streamBlock(sse, send, i, b) {
			return
		}
	}
	if !send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": rep.StopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTokens(rep)}}) {
		return
	}
	send("message_stop", map[string]any{})
}

// streamBlock writes one block's start, deltas and stop.
func streamBlock(sse *mockllm.SSE, send func(string, map[string]any) bool, i int, b Block) bool {
	var start map[string]any
	switch b.Type {
	case "thinking":
		start = map[string]any{"type": "thinking", "thinking": ""}
	case "tool_use":
		start = map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}
	default:
		start = map[string]any{"type": "text", "text": ""}
	}
	if !send("content_block_start", map[string]any{"index": i, "content_block": start}) {
		return false
	}
	delta := func(d map[string]any) bool {
		return send("content_block_delta", map[string]any{"index": i, "delta": d})
	}
	switch b.Type {
	case "tool_use":
		in, _ := json.Marshal(b.Input)
		for _, c := range Chunk(string(in), 7) {
			if !delta(map[string]any{"type": "input_json_delta", "partial_json": c}) {
				return false
			}
		}
	default:
		chunks := b.Chunks
		if chunks == nil {
			chunks = Chunk(b.Text, 3)
		}
		for _, c := range chunks {
			if !sse.Pause(b.Delay) {
				return false
			}
			d := map[string]any{"type": "text_delta", "text": c}
			if b.Type == "thinking" {
				d = map[string]any{"type": "thinking_delta", "thinking": c}
			}
			if !delta(d) {
				return false
			}
		}
		if b.Type == "thinking" && !delta(map[string]any{"type": "signature_delta", "signature": "mock-signature"}) {
			return false
		}
	}
	return send("content_block_stop", map[string]any{"index": i})
}
