package mockopenai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Server is the mock API. The zero value is not usable: call New.
type Server struct {
	// Base serves on loopback; its Dump, when set, is a directory that
	// receives every request body.
	mockllm.Base

	mu    sync.Mutex
	calls int
	tap   func(path, prompt, reply string)
}

// New returns a server; tap, when not nil, sees every request answered.
func New(tap func(path, prompt, reply string)) *Server { return &Server{tap: tap} }

// Listen serves on a loopback addr and returns the base URL (…/v1 is the
// API's base).
func (s *Server) Listen(addr string) (string, error) { return s.Serve("mockopenai", addr, s) }

// ServeHTTP answers POST …/chat/completions, POST …/responses and GET
// …/models.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		mockllm.WriteJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock-model", "object": "model"}}})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chat(w, r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		s.responses(w, r)
	default:
		s.record(r.URL.Path, "", "404")
		mockllm.WriteJSON(w, 404, apiError("the mock does not serve "+r.Method+" "+r.URL.Path))
	}
}

// decode reads a request body into v, answering 400 when it is too large
// or not JSON.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := s.Decode(r, v); err != nil {
		mockllm.WriteJSON(w, 400, apiError("bad request body: "+err.Error()))
		return false
	}
	return true
}

// refused answers a scripted failure for prompt, if it has one: 429 for
// "overloaded N …", 503 for "down …".
func (s *Server) refused(w http.ResponseWriter, path, prompt string) bool {
	fail, down := s.Failing(prompt)
	if !fail {
		return false
	}
	code := 429
	if down {
		code = 503
	}
	s.record(path, prompt, fmt.Sprint(code))
	w.Header().Set("retry-after", "1")
	mockllm.WriteJSON(w, code, apiError("scripted failure: overloaded"))
	return true
}

// callID numbers a reply ("mock_0001", …).
func (s *Server) callID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return fmt.Sprintf("mock_%04d", s.calls)
}

// chat answers a chat completions request.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req Request
	if !s.decode(w, r, &req) {
		return
	}
	prompt, _, _ := req.prompt()
	if s.refused(w, r.URL.Path, prompt) {
		return
	}
	rep := Script(&req)
	callID := ""
	if rep.Call != nil {
		callID = "call_" + s.callID()
		s.record(r.URL.Path, prompt, "call:"+rep.Call.Name)
	} else {
		s.record(r.URL.Path, prompt, "text")
	}
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	if req.Stream {
		stream(mockllm.NewSSE(r.Context(), w), model, rep, callID)
		return
	}
	msg := map[string]any{"role": "assistant", "content": rep.Text}
	finish := "stop"
	if rep.Call != nil {
		args, _ := json.Marshal(rep.Call.Args)
		msg["tool_calls"] = []any{map[string]any{"id": callID, "type": "function", "function": map[string]any{"name": rep.Call.Name, "arguments": string(args)}}}
		finish = "tool_calls"
	}
	mockllm.WriteJSON(w, 200, map[string]any{"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage()})
}

// responses answers a Responses API request.
func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var req ResponsesRequest
	if !s.decode(w, r, &req) {
		return
	}
	prompt, _, _ := req.prompt()
	if s.refused(w, r.URL.Path, prompt) {
		return
	}
	rep, call := ScriptResponses(&req)
	if call != nil {
		s.record(r.URL.Path, prompt, "call:"+call.Name)
	} else {
		s.record(r.URL.Path, prompt, "text")
	}
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	id := s.callID()
	if req.Stream {
		streamResponses(mockllm.NewSSE(r.Context(), w), model, id, rep, call)
		return
	}
	mockllm.WriteJSON(w, 200, responseObject(model, id, "completed", responseItems(rep, call, id)))
}

func (s *Server) record(path, prompt, reply string) {
	if s.tap != nil {
		s.tap(path, prompt, reply)
	}
}

func apiError(msg string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": "mock_error"}}
}
