package mockopenai

import (
	"encoding/json"
	"strings"

	"github.com/ahptui/ahptui/internal/mockllm"
)

func usage() map[string]any {
	return map[string]any{"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}
}

// stream writes a chat completions reply as chat.completion.chunk
// events, a word at a time, then the call, the finish and [DONE].
func stream(sse *mockllm.SSE, model string, rep Reply, callID string) {
	send := func(delta map[string]any, finish any, extra map[string]any) bool {
		ev := map[string]any{"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		for k, v := range extra {
			ev[k] = v
		}
		b, _ := json.Marshal(ev)
		return sse.Send("", b)
	}
	if !send(map[string]any{"role": "assistant", "content": ""}, nil, nil) {
		return
	}
	for _, wd := range strings.SplitAfter(rep.Text, " ") {
		if !sse.Pause(rep.Delay) || (wd != "" && !send(map[string]any{"content": wd}, nil, nil)) {
			return
		}
	}
	finish := "stop"
	if rep.Call != nil {
		args, _ := json.Marshal(rep.Call.Args)
		if !send(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": callID, "type": "function",
			"function": map[string]any{"name": rep.Call.Name, "arguments": string(args)}}}}, nil, nil) {
			return
		}
		finish = "tool_calls"
	}
	if send(map[string]any{}, finish, map[string]any{"usage": usage()}) {
		sse.Send("", []byte("[DONE]"))
	}
}
