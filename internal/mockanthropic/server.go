package mockanthropic

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Logged is one request the server received.
type Logged struct {
	// Method and Path are the request line's.
	Method, Path string
	// Prompt is the last user message's text (POST /v1/messages only).
	Prompt string
	// Stream tells whether the client asked for events.
	Stream bool
	// Reply is the stop reason answered ("" when not a messages request).
	Reply string
}

// Server is the mock API. The zero value is not usable: call New.
type Server struct {
	// Base serves on loopback; its Dump, when set, is a directory that
	// receives every request body (NNNN.json, in arrival order).
	mockllm.Base

	mu    sync.Mutex
	tools int // tool_use ids given
	log   []Logged
	tap   func(Logged)
	// answered holds the tool_use ids whose result the mock answered.
	answered map[string]bool
}

// New returns a server; tap, when not nil, sees every request as it is
// answered (the command prints them).
func New(tap func(Logged)) *Server { return &Server{tap: tap} }

// Requests returns the requests received so far.
func (s *Server) Requests() []Logged {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Logged(nil), s.log...)
}

func (s *Server) record(l Logged) {
	s.mu.Lock()
	s.log = append(s.log, l)
	s.mu.Unlock()
	if s.tap != nil {
		s.tap(l)
	}
}

// Listen serves on addr, which must be a loopback address
// (127.0.0.1:0 picks a port), and returns the base URL.
func (s *Server) Listen(addr string) (string, error) { return s.Serve("mockanthropic", addr, s) }

// ServeHTTP answers the API's routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodHead || (r.Method == http.MethodGet && r.URL.Path == "/"):
		s.record(Logged{Method: r.Method, Path: r.URL.Path})
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		req, ok := s.decode(w, r)
		if !ok {
			return
		}
		s.record(Logged{Method: r.Method, Path: r.URL.Path, Prompt: req.Prompt()})
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 10 + len(req.Messages)*50})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		req, ok := s.decode(w, r)
		if !ok {
			return
		}
		if fail, _ := s.Failing(req.Prompt()); fail {
			s.record(Logged{Method: r.Method, Path: r.URL.Path, Prompt: req.Prompt(), Stream: req.Stream, Reply: "overloaded"})
			w.Header().Set("retry-after", "1")
			writeJSON(w, 529, apiError("overloaded_error", "Overloaded (the mock's scripted failure)"))
			return
		}
		req.Answered = s.wasAnswered
		rep := Script(req)
		if _, res := req.turn(); res != nil && len(req.Tools) > 0 {
			s.mu.Lock()
			if s.answered == nil {
				s.answered = map[string]bool{}
			}
			s.answered[res.ToolUseID] = true
			s.mu.Unlock()
		}
		for i := range rep.Blocks {
			if rep.Blocks[i].Type == "tool_use" && rep.Blocks[i].ID == "" {
				s.mu.Lock()
				s.tools++
				rep.Blocks[i].ID = fmt.Sprintf("toolu_mock_%04d", s.tools)
				s.mu.Unlock()
			}
		}
		s.record(Logged{Method: r.Method, Path: r.URL.Path, Prompt: req.Prompt(), Stream: req.Stream, Reply: rep.StopReason})
		model := req.Model
		if model == "" {
			model = "claude-mock"
		}
		if req.Stream {
			stream(r.Context(), w, model, rep)
			return
		}
		writeJSON(w, http.StatusOK, message(model, rep))
	default:
		s.record(Logged{Method: r.Method, Path: r.URL.Path})
		writeJSON(w, http.StatusNotFound, apiError("not_found_error", "the mock does not serve "+r.Method+" "+r.URL.Path))
	}
}

// wasAnswered reports whether the result of tool_use id was answered.
func (s *Server) wasAnswered(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered[id]
}

// decode reads a messages request, answering 400 on a bad body.
func (s *Server) decode(w http.ResponseWriter, r *http.Request) (*Request, bool) {
	var req Request
	if err := s.Decode(r, &req); err != nil {
		s.record(Logged{Method: r.Method, Path: r.URL.Path})
		writeJSON(w, http.StatusBadRequest, apiError("invalid_request_error", err.Error()))
		return nil, false
	}
	return &req, true
}

func apiError(kind, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("request-id", "req_mock")
	mockllm.WriteJSON(w, code, v)
}
