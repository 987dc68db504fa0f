package acp

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// The SDK serves every request the agent sends in a goroutine of its own,
// without a bound, and answers it whenever the agent reads: an agent that
// sends ten thousand requests at once, or stops reading its stdin while
// the host answers, must not take the host down with it. The bridge
// bounds both here: the requests in flight (more are answered "busy" at
// once), the blocking file I/O in flight, and the answer bytes queued to
// the agent (a read that does not fit is refused before anything is read).

// Bounds of one agent's requests.
const (
	// maxAgentRequests bounds the agent's requests in flight (permission
	// prompts and terminal waits included).
	maxAgentRequests = 256
	// maxFileIO bounds file reads and writes in flight: each may hold an
	// OS thread in the kernel.
	maxFileIO = 8
)

// limits are the bridge's bounds on its agent's requests.
type limits struct {
	reqs chan struct{} // a slot per request in flight
	io   chan struct{} // a slot per file operation in flight

	mu       sync.Mutex
	queued   int64 // answer bytes reserved, not yet written to the agent
	maxQueue int64
}

func newLimits(maxQueue int64) *limits {
	return &limits{reqs: make(chan struct{}, maxAgentRequests), io: make(chan struct{}, maxFileIO), maxQueue: maxQueue}
}

// errBusy answers a request over maxAgentRequests.
var errBusy = sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("too many requests in flight (at most %d); wait for answers first", maxAgentRequests)})

// enter takes a request slot; false when there is none.
func (l *limits) enter() bool {
	select {
	case l.reqs <- struct{}{}:
		return true
	default:
		return false
	}
}

func (l *limits) leave() { <-l.reqs }

// fileIO waits for a file operation slot (bounded by ctx) and returns its
// release.
func (l *limits) fileIO(ctx context.Context) (func(), error) {
	select {
	case l.io <- struct{}{}:
		return func() { <-l.io }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for earlier file operations: %w", context.Cause(ctx))
	}
}

// reserve reserves n answer bytes until ctx ends: the SDK ends a request's
// context once its answer was written (or the connection closed). It
// reports false, reserving nothing, when the queue has no room for n.
// The returned function gives back part of the reservation early.
func (l *limits) reserve(ctx context.Context, n int64) (func(int64), bool) {
	l.mu.Lock()
	if l.queued+n > l.maxQueue {
		l.mu.Unlock()
		return nil, false
	}
	l.queued += n
	l.mu.Unlock()
	var mu sync.Mutex
	held := n
	give := func(k int64) {
		mu.Lock()
		k = min(k, held)
		held -= k
		mu.Unlock()
		l.mu.Lock()
		l.queued -= k
		l.mu.Unlock()
	}
	context.AfterFunc(ctx, func() { give(n) })
	return give, true
}

// queuedBytes is what reserve holds now (tests).
func (l *limits) queuedBytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.queued
}

// errQueueFull refuses a read whose answer does not fit the queue.
func errQueueFull(n, max int64) error {
	return sdk.NewInternalError(map[string]any{"error": fmt.Sprintf(
		"the host is still sending earlier answers to the agent (an answer of %d bytes does not fit its %d-byte queue); read again once they arrived", n, max)})
}

// gatedClient is the client the SDK calls: every request but
// session/update takes a slot of the bridge's limits first.
type gatedClient struct{ *client }

// gated runs one agent request in a slot of the bridge's limits, or
// answers errBusy at once when none is free.
func gated[Req, Resp any](g gatedClient, ctx context.Context, p Req, f func(context.Context, Req) (Resp, error)) (Resp, error) {
	if !g.b.limits.enter() {
		var zero Resp
		return zero, errBusy
	}
	defer g.b.limits.leave()
	return f(ctx, p)
}

func (g gatedClient) ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return gated(g, ctx, p, g.client.ReadTextFile)
}

func (g gatedClient) WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return gated(g, ctx, p, g.client.WriteTextFile)
}

func (g gatedClient) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return gated(g, ctx, p, g.client.RequestPermission)
}

func (g gatedClient) CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return gated(g, ctx, p, g.client.CreateTerminal)
}

func (g gatedClient) KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return gated(g, ctx, p, g.client.KillTerminal)
}

func (g gatedClient) TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return gated(g, ctx, p, g.client.TerminalOutput)
}

func (g gatedClient) ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return gated(g, ctx, p, g.client.ReleaseTerminal)
}

func (g gatedClient) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return gated(g, ctx, p, g.client.WaitForTerminalExit)
}
