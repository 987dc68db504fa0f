package mockllm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// SSE writes server-sent events, flushing each.
type SSE struct {
	w   http.ResponseWriter
	fl  http.Flusher
	ctx context.Context
	// Sep ends an event ("\n\n" unless set: Gemini's is "\r\n\r\n").
	Sep string
}

// NewSSE starts an event stream (status 200) that stops when ctx ends.
func NewSSE(ctx context.Context, w http.ResponseWriter) *SSE {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	return &SSE{w: w, fl: fl, ctx: ctx, Sep: "\n\n"}
}

// Send writes one event: "event: NAME" (when name is not "") and "data:
// DATA". It reports false once the client is gone.
func (s *SSE) Send(name string, data []byte) bool {
	var err error
	if name != "" {
		_, err = fmt.Fprintf(s.w, "event: %s\ndata: %s%s", name, data, s.Sep)
	} else {
		_, err = fmt.Fprintf(s.w, "data: %s%s", data, s.Sep)
	}
	if err != nil {
		return false
	}
	if s.fl != nil {
		s.fl.Flush()
	}
	return s.ctx.Err() == nil
}

// Pause waits d before a delta (no wait when d is 0); false when the
// client went away meanwhile.
func (s *SSE) Pause(d time.Duration) bool {
	if d <= 0 {
		return s.ctx.Err() == nil
	}
	select {
	case <-s.ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// SlowDelay is the pause before each word of the "slow" answer.
const SlowDelay = 100 * time.Millisecond

// SlowText is the "slow" answer: "word0 word1 … word599 ", streamed a
// word every SlowDelay (a minute: for cancellation).
func SlowText() string {
	var b strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "word%d ", i)
	}
	return b.String()
}
