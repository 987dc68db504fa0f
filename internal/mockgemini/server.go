package mockgemini

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Server is the mock API. The zero value is not usable: call New.
type Server struct {
	// Base serves on loopback; its Dump, when set, is a directory that
	// receives every request body.
	mockllm.Base

	tap func(method, path, prompt, reply string)
}

// New returns a server; tap, when not nil, sees every request answered.
func New(tap func(method, path, prompt, reply string)) *Server { return &Server{tap: tap} }

// Listen serves on a loopback addr and returns the base URL.
func (s *Server) Listen(addr string) (string, error) { return s.Serve("mockgemini", addr, s) }

func (s *Server) record(method, path, prompt, reply string) {
	if s.tap != nil {
		s.tap(method, path, prompt, reply)
	}
}

// ServeHTTP answers the API's routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := strings.LastIndexByte(r.URL.Path, ':')
	if r.Method != http.MethodPost || i < 0 {
		s.record(r.Method, r.URL.Path, "", "404")
		mockllm.WriteJSON(w, http.StatusNotFound, apiError(404, "NOT_FOUND", "the mock does not serve "+r.Method+" "+r.URL.Path))
		return
	}
	verb := r.URL.Path[i+1:]
	var req Request
	if err := s.Decode(r, &req); err != nil {
		mockllm.WriteJSON(w, http.StatusBadRequest, apiError(400, "INVALID_ARGUMENT", "bad request body: "+err.Error()))
		return
	}
	prompt, _ := req.turn()
	switch verb {
	case "countTokens":
		s.record(r.Method, r.URL.Path, prompt, "tokens")
		mockllm.WriteJSON(w, http.StatusOK, map[string]any{"totalTokens": 10 + 50*len(req.Contents)})
		return
	case "generateContent", "streamGenerateContent":
	default:
		mockllm.WriteJSON(w, http.StatusNotFound, apiError(404, "NOT_FOUND", "unknown method "+verb))
		return
	}
	if fail, _ := s.Failing(prompt); fail {
		s.record(r.Method, r.URL.Path, prompt, "503")
		mockllm.WriteJSON(w, http.StatusServiceUnavailable, apiError(503, "UNAVAILABLE", "The model is overloaded (the mock's scripted failure)"))
		return
	}
	rep := Script(&req)
	s.record(r.Method, r.URL.Path, prompt, rep.kind())
	if verb == "streamGenerateContent" {
		stream(r.Context(), w, rep)
		return
	}
	mockllm.WriteJSON(w, http.StatusOK, rep.response(rep.Parts))
}

// stream writes the reply as server-sent events, a text part's words in
// chunks (slowly for "slow"), function calls whole.
func stream(ctx context.Context, w http.ResponseWriter, rep Reply) {
	sse := mockllm.NewSSE(ctx, w)
	sse.Sep = "\r\n\r\n"
	send := func(parts []Part, last bool) bool {
		resp := rep.response(parts)
		if !last {
			resp["candidates"].([]map[string]any)[0]["finishReason"] = nil
		}
		b, _ := json.Marshal(resp)
		return sse.Send("", b)
	}
	for i, p := range rep.Parts {
		last := i == len(rep.Parts)-1
		if p.Text == "" {
			if !send([]Part{p}, last) {
				return
			}
			continue
		}
		words := strings.SplitAfter(p.Text, " ")
		for j, wd := range words {
			if !sse.Pause(rep.Delay) || !send([]Part{{Text: wd}}, last && j == len(words)-1) {
				return
			}
		}
	}
}

func apiError(code int, status, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "status": status, "message": msg}}
}
