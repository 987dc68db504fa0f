package mockgemini

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

// maxBody bounds a request body.
const maxBody = 32 << 20

// Server is the mock API. The zero value is not usable: call New.
type Server struct {
	// Dump, when set, is a directory that receives every request body.
	Dump string

	mu    sync.Mutex
	n     int
	fails map[string]int
	tap   func(method, path, prompt, reply string)
	http  *http.Server
}

// New returns a server; tap, when not nil, sees every request answered.
func New(tap func(method, path, prompt, reply string)) *Server { return &Server{tap: tap} }

// Listen serves on a loopback addr and returns the base URL.
func (s *Server) Listen(addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mockgemini: listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("mockgemini: %q is not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("mockgemini: listen: %w", err)
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
		writeJSON(w, http.StatusNotFound, apiError(404, "NOT_FOUND", "the mock does not serve "+r.Method+" "+r.URL.Path))
		return
	}
	verb := r.URL.Path[i+1:]
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	var req Request
	if err == nil && len(body) <= maxBody {
		err = json.Unmarshal(body, &req)
	}
	if err != nil || len(body) > maxBody {
		writeJSON(w, http.StatusBadRequest, apiError(400, "INVALID_ARGUMENT", "bad request body"))
		return
	}
	s.dump(body)
	prompt, _ := req.turn()
	switch verb {
	case "countTokens":
		s.record(r.Method, r.URL.Path, prompt, "tokens")
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": 10 + 50*len(req.Contents)})
		return
	case "generateContent", "streamGenerateContent":
	default:
		writeJSON(w, http.StatusNotFound, apiError(404, "NOT_FOUND", "unknown method "+verb))
		return
	}
	if s.failing(prompt) {
		s.record(r.Method, r.URL.Path, prompt, "503")
		writeJSON(w, http.StatusServiceUnavailable, apiError(503, "UNAVAILABLE", "The model is overloaded (the mock's scripted failure)"))
		return
	}
	rep := Script(&req)
	s.record(r.Method, r.URL.Path, prompt, rep.kind())
	if verb == "streamGenerateContent" {
		stream(r.Context(), w, rep)
		return
	}
	writeJSON(w, http.StatusOK, rep.response(rep.Parts))
}

// dump writes a request body into Dump.
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

// failing reports a scripted failure: "down …" always, "overloaded N …"
// the first N times.
func (s *Server) failing(prompt string) bool {
	if strings.HasPrefix(prompt, "down") {
		return true
	}
	rest, ok := strings.CutPrefix(prompt, "overloaded ")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(strings.Fields(rest + " x")[0])
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails == nil {
		s.fails = map[string]int{}
	}
	if s.fails[prompt] >= n {
		return false
	}
	s.fails[prompt]++
	return true
}

// stream writes the reply as server-sent events, a text part's words in
// chunks (slowly for "slow"), function calls whole.
func stream(ctx context.Context, w http.ResponseWriter, rep Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(parts []Part, last bool) bool {
		resp := rep.response(parts)
		if !last {
			resp["candidates"].([]map[string]any)[0]["finishReason"] = nil
		}
		b, _ := json.Marshal(resp)
		if _, err := fmt.Fprintf(w, "data: %s\r\n\r\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
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
			if rep.Delay > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(rep.Delay):
				}
			}
			if !send([]Part{{Text: wd}}, last && j == len(words)-1) {
				return
			}
		}
	}
}

func apiError(code int, status, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "status": status, "message": msg}}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
