package mockopenai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

const maxBody = 32 << 20

// Server is the mock API. The zero value is not usable: call New.
type Server struct {
	// Dump, when set, is a directory that receives every request body.
	Dump string

	mu    sync.Mutex
	n     int
	calls int
	fails map[string]int
	tap   func(path, prompt, reply string)
	http  *http.Server
}

// New returns a server; tap, when not nil, sees every request answered.
func New(tap func(path, prompt, reply string)) *Server { return &Server{tap: tap} }

// Listen serves on a loopback addr and returns the base URL (…/v1 is the
// API's base).
func (s *Server) Listen(addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mockopenai: listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("mockopenai: %q is not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("mockopenai: listen: %w", err)
	}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.http.Serve(ln) }()
	return "http://" + ln.Addr().String(), nil
}

// Close stops the server.
func (s *Server) Close() error {
	if s.http == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil {
		return s.http.Close()
	}
	return nil
}

// ServeHTTP answers POST …/chat/completions, POST …/responses and GET
// …/models.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock-model", "object": "model"}}})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chat(w, r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		s.responses(w, r)
	default:
		s.record(r.URL.Path, "", "404")
		writeJSON(w, 404, apiError("the mock does not serve "+r.Method+" "+r.URL.Path))
	}
}

// decode reads a request body into v (and dumps it), answering 400 when
// it is too large or not JSON.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err == nil && len(body) <= maxBody {
		err = json.Unmarshal(body, v)
	}
	if err != nil || len(body) > maxBody {
		writeJSON(w, 400, apiError("bad request body"))
		return false
	}
	s.dump(body)
	return true
}

// refused answers a scripted failure for prompt, if it has one.
func (s *Server) refused(w http.ResponseWriter, path, prompt string) bool {
	code := s.failing(prompt)
	if code == 0 {
		return false
	}
	s.record(path, prompt, strconv.Itoa(code))
	w.Header().Set("retry-after", "1")
	writeJSON(w, code, apiError("scripted failure: overloaded"))
	return true
}

// callID numbers a tool call ("mock_0001", …).
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
		stream(r.Context(), w, model, rep, callID)
		return
	}
	msg := map[string]any{"role": "assistant", "content": rep.Text}
	finish := "stop"
	if rep.Call != nil {
		args, _ := json.Marshal(rep.Call.Args)
		msg["tool_calls"] = []any{map[string]any{"id": callID, "type": "function", "function": map[string]any{"name": rep.Call.Name, "arguments": string(args)}}}
		finish = "tool_calls"
	}
	writeJSON(w, 200, map[string]any{"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": model,
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
		streamResponses(r.Context(), w, model, id, rep, call)
		return
	}
	writeJSON(w, 200, responseObject(model, id, "completed", responseItems(rep, call, id)))
}

func usage() map[string]any {
	return map[string]any{"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}
}

// stream writes the reply as chat.completion.chunk events.
func stream(ctx context.Context, w http.ResponseWriter, model string, rep Reply, callID string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	fl, _ := w.(http.Flusher)
	send := func(delta map[string]any, finish any, extra map[string]any) bool {
		ev := map[string]any{"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		for k, v := range extra {
			ev[k] = v
		}
		b, _ := json.Marshal(ev)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if !send(map[string]any{"role": "assistant", "content": ""}, nil, nil) {
		return
	}
	for _, wd := range strings.SplitAfter(rep.Text, " ") {
		if rep.Delay > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(rep.Delay):
			}
		}
		if wd != "" && !send(map[string]any{"content": wd}, nil, nil) {
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
	send(map[string]any{}, finish, map[string]any{"usage": usage()})
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

func (s *Server) record(path, prompt, reply string) {
	if s.tap != nil {
		s.tap(path, prompt, reply)
	}
}

func (s *Server) dump(body []byte) {
	if s.Dump == "" {
		return
	}
	s.mu.Lock()
	s.n++
	name := filepath.Join(s.Dump, fmt.Sprintf("%04d.json", s.n))
	s.mu.Unlock()
	_ = os.WriteFile(name, body, 0o600)
}

// failing returns the scripted failure's status (0 = none).
func (s *Server) failing(prompt string) int {
	if strings.HasPrefix(prompt, "down") {
		return 503
	}
	rest, ok := strings.CutPrefix(prompt, "overloaded ")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(strings.Fields(rest + " x")[0])
	if err != nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails == nil {
		s.fails = map[string]int{}
	}
	if s.fails[prompt] >= n {
		return 0
	}
	s.fails[prompt]++
	return 429
}

func apiError(msg string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": "mock_error"}}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
