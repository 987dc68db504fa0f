package mockllm

import (
	"context"
	"encoding/json"
	"errors"
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

// MaxBody bounds a request body (agents send the whole conversation and
// their tool schemas: a few hundred KiB).
const MaxBody = 32 << 20

// Base is the server side every mock shares. The zero value is ready;
// set Dump before Serve.
type Base struct {
	// Dump, when set, is a directory that receives every request body
	// (NNNN.json, in arrival order) for post-mortems.
	Dump string

	mu    sync.Mutex
	n     int            // bodies dumped
	fails map[string]int // "overloaded N …" prompts: failures answered so far
	http  *http.Server
}

// Serve serves h on addr, which must be a loopback address (127.0.0.1:0
// picks a port), and returns the base URL; name prefixes its errors.
func (b *Base) Serve(name, addr string, h http.Handler) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%s: listen address %q: %w", name, addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("%s: %q is not a loopback address", name, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("%s: listen: %w", name, err)
	}
	b.http = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = b.http.Serve(ln) }()
	return "http://" + ln.Addr().String(), nil
}

// Close stops the server and ends the streams in flight.
func (b *Base) Close() error {
	if b.http == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := b.http.Shutdown(ctx); err != nil {
		return b.http.Close()
	}
	return nil
}

// ReadBody reads a request body (at most MaxBody) and dumps it.
func (b *Base) ReadBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("read the body: %w", err)
	}
	if len(body) > MaxBody {
		return nil, errors.New("body too large")
	}
	if b.Dump != "" {
		b.mu.Lock()
		b.n++
		name := filepath.Join(b.Dump, fmt.Sprintf("%04d.json", b.n))
		b.mu.Unlock()
		_ = os.WriteFile(name, body, 0o600)
	}
	return body, nil
}

// Decode reads a request body into v: ReadBody, then JSON.
func (b *Base) Decode(r *http.Request, v any) error {
	body, err := b.ReadBody(r)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("decode the body: %w", err)
	}
	return nil
}

// Failing reports whether a request with this prompt gets a scripted
// failure, and whether it is "down" (always) rather than "overloaded N"
// (the first N times).
func (b *Base) Failing(prompt string) (fail, down bool) {
	if strings.HasPrefix(prompt, "down") {
		return true, true
	}
	rest, ok := strings.CutPrefix(prompt, "overloaded ")
	if !ok {
		return false, false
	}
	n, err := strconv.Atoi(strings.Fields(rest + " x")[0])
	if err != nil {
		return false, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fails == nil {
		b.fails = map[string]int{}
	}
	if b.fails[prompt] >= n {
		return false, false
	}
	b.fails[prompt]++
	return true, false
}

// WriteJSON answers v as JSON with status code.
func WriteJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
