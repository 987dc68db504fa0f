package acp

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// terminal is one terminal/create command running in a host-owned pty,
// shown as an ahp-terminal: channel.
type terminal struct {
	id, uri, title string
	chat           string // the chat of the turn that created it
	limit          int
	ch             agent.Channels
	cmd            *exec.Cmd
	shim           *agentShim           // the command's shim, nil when started directly (shim.go)
	input          func(string) error   // writes to the pty
	resize         func(cols, rows int) // sizes the pty (never blocks)

	mu        sync.Mutex
	out       []byte
	truncated bool
	exited    chan struct{}
	exitCode  *int
	signal    *string
	attached  bool
}

// maxTerminals bounds the live terminals of one session.
const maxTerminals = 16

// maxSessionTerminals bounds the terminals one session makes in all (each
// is a channel the host keeps with the session); a var for tests.
var maxSessionTerminals = 1024

// terminal returns the session's terminal with an ACP terminal id.
func (s *session) terminal(id string) *terminal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.terms[id]
}

// CreateTerminal runs a command in a pty inside the session's directory.
func (c *client) CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	s := c.b.sessionByACP(p.SessionId)
	if s == nil {
		return sdk.CreateTerminalResponse{}, errNoSession
	}
	tm := s.activeTurn()
	if tm == nil || tm.t.Channels == nil {
		return sdk.CreateTerminalResponse{}, sdk.NewInvalidRequest(map[string]any{"error": "no turn is running in this session"})
	}
	dir := s.dir
	if p.Cwd != nil && *p.Cwd != "" {
		d, err := confine(s.dir, *p.Cwd)
		if err != nil {
			return sdk.CreateTerminalResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
		}
		dir = d
	}
	limit := DefaultTerminalOutput
	if p.OutputByteLimit != nil && *p.OutputByteLimit > 0 {
		limit = min(*p.OutputByteLimit, 16<<20)
	}
	s.mu.Lock()
	if len(s.terms) >= maxTerminals {
		s.mu.Unlock()
		return sdk.CreateTerminalResponse{}, sdk.NewInvalidRequest(map[string]any{"error": "too many terminals; release some"})
	}
	if s.termSeq >= maxSessionTerminals {
		s.mu.Unlock()
		return sdk.CreateTerminalResponse{}, sdk.NewInvalidRequest(map[string]any{"error": fmt.Sprintf("this session made %d terminals, the most it may; start a new session", maxSessionTerminals)})
	}
	s.termSeq++
	id := fmt.Sprintf("term-%d", s.termSeq)
	s.mu.Unlock()
	title := strings.TrimSpace(p.Command + " " + strings.Join(p.Args, " "))
	t := &terminal{id: id, title: title, chat: tm.t.Chat, limit: limit, ch: tm.t.Channels, exited: make(chan struct{}),
		uri: ahpwire.TerminalScheme + "/" + strings.TrimPrefix(strings.TrimPrefix(tm.t.Chat, ahpwire.ChatScheme), "/") + "-" + id}
	env := make([]string, 0, len(p.Env))
	for _, e := range p.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	t.ch.OpenTerminal(t.uri, ahpwire.TerminalState{
		Title: title, Cols: ahpwire.Ptr[int64](120), Rows: ahpwire.Ptr[int64](30), Cwd: fileURI(dir),
		Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: tm.t.Chat, TurnID: tm.t.TurnID},
	})
	if err := c.b.startTerminal(t, p.Command, p.Args, dir, env); err != nil {
		t.ch.Terminal(t.uri, &ahpwire.TerminalData{Data: "cannot start: " + err.Error() + "\r\n"})
		t.ch.Terminal(t.uri, &ahpwire.TerminalExited{})
		return sdk.CreateTerminalResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	if ti, ok := t.ch.(agent.TerminalInputs); ok {
		ti.OnTerminalInput(t.uri, func(data string) { _ = t.input(data) })
	}
	if tr, ok := t.ch.(agent.TerminalResizes); ok && t.resize != nil {
		// A client typing into it sizes it to its view (ahphost/termresize.go).
		tr.OnTerminalResize(t.uri, t.resize)
	}
	s.mu.Lock()
	s.terms[id] = t
	s.mu.Unlock()
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

// output appends pty output (keeping the last limit bytes) and streams it.
func (t *terminal) output(b []byte) {
	t.mu.Lock()
	t.out = append(t.out, b...)
	if over := len(t.out) - t.limit; over > 0 {
		cut := over
		for cut < len(t.out) && !utf8.RuneStart(t.out[cut]) {
			cut++
		}
		t.out = append(t.out[:0], t.out[cut:]...)
		t.truncated = true
	}
	t.mu.Unlock()
	t.ch.Terminal(t.uri, &ahpwire.TerminalData{Data: strings.ToValidUTF8(string(b), "\uFFFD")})
}

// exit records the exit status and announces it.
func (t *terminal) exit(code *int, sig *string) {
	t.mu.Lock()
	t.exitCode, t.signal = code, sig
	t.mu.Unlock()
	var c *int64
	if code != nil {
		c = ahpwire.Ptr(int64(*code))
	}
	t.ch.Terminal(t.uri, &ahpwire.TerminalExited{ExitCode: c})
	close(t.exited)
}

// attach notes the tool call that shows the terminal (its claim).
func (t *terminal) attach(turnID, toolCallID string) {
	t.mu.Lock()
	first := !t.attached
	t.attached = true
	t.mu.Unlock()
	if first {
		t.ch.Terminal(t.uri, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: t.chat, TurnID: turnID, ToolCallID: toolCallID}})
	}
}

// status returns the ACP exit status (nil while running).
func (t *terminal) status() *sdk.TerminalExitStatus {
	select {
	case <-t.exited:
	default:
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return &sdk.TerminalExitStatus{ExitCode: t.exitCode, Signal: t.signal}
}

// release kills the command (if running) and stops input.
func (t *terminal) release() {
	if ti, ok := t.ch.(agent.TerminalInputs); ok {
		ti.OnTerminalInput(t.uri, nil)
	}
	if tr, ok := t.ch.(agent.TerminalResizes); ok {
		tr.OnTerminalResize(t.uri, nil)
	}
	t.kill()
}

// TerminalOutput returns the output so far and the exit status.
func (c *client) TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := c.term(p.SessionId, p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	st := t.status()
	t.mu.Lock()
	defer t.mu.Unlock()
	// The answer waits in the queue to the agent like a file read's
	// (limits.go): an agent asking for 16 MiB of output hundreds of times
	// without reading its stdin is refused, not queued.
	if _, ok := c.b.limits.reserve(ctx, int64(len(t.out))); !ok {
		return sdk.TerminalOutputResponse{}, errQueueFull(int64(len(t.out)), c.b.limits.maxQueue)
	}
	return sdk.TerminalOutputResponse{Output: strings.ToValidUTF8(string(t.out), "\uFFFD"), Truncated: t.truncated, ExitStatus: st}, nil
}

// WaitForTerminalExit waits for the command to exit.
func (c *client) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := c.term(p.SessionId, p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.exited:
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	case <-c.b.ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, errClosed
	}
	st := t.status()
	return sdk.WaitForTerminalExitResponse{ExitCode: st.ExitCode, Signal: st.Signal}, nil
}

// KillTerminal kills the command; the terminal stays for output.
func (c *client) KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := c.term(p.SessionId, p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	t.kill()
	return sdk.KillTerminalResponse{}, nil
}

// ReleaseTerminal kills the command and forgets the terminal (its channel
// stays, as the tool call shows it).
func (c *client) ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t, err := c.term(p.SessionId, p.TerminalId)
	if err != nil {
		return sdk.ReleaseTerminalResponse{}, err
	}
	s := c.b.sessionByACP(p.SessionId)
	s.mu.Lock()
	delete(s.terms, p.TerminalId)
	s.mu.Unlock()
	t.release()
	return sdk.ReleaseTerminalResponse{}, nil
}

// term finds a terminal of a session.
func (c *client) term(sid sdk.SessionId, id string) (*terminal, error) {
	s := c.b.sessionByACP(sid)
	if s == nil {
		return nil, errNoSession
	}
	t := s.terminal(id)
	if t == nil {
		return nil, sdk.NewInvalidParams(map[string]any{"error": "unknown terminal " + id})
	}
	return t, nil
}
