package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// fakeBin is the fake agent built once for the package's tests.
var fakeBin string

// helperMain, when set, runs instead of the tests when it reports true
// (the writer process of BenchmarkBridgeChunks).
var helperMain func() bool

func TestMain(m *testing.M) {
	if code, ok := RunShim(os.Args); ok { // (opts.shim: this binary is the shim)
		os.Exit(code)
	}
	if helperMain != nil && helperMain() {
		return
	}
	dir, err := os.MkdirTemp("", "fakeacp")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBin = filepath.Join(dir, "fakeacp")
	out, err := exec.Command("go", "build", "-o", fakeBin, "github.com/ahptui/ahptui/internal/fakeacp/cmd/fakeacp").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the fake agent: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is one bridge + host + client set up for a test.
type env struct {
	t       *testing.T
	b       *Bridge
	more    []*Bridge // opts.more's
	h       *ahphost.Host
	url     string
	dir     string // the sessions' working directory
	state   string // the bridge's state dir
	logs    *logBuf
	c       *client2
	ctx     context.Context
	cancel  context.CancelFunc
	clients atomic.Int32 // dial may run on the soak's goroutines
}

// client2 is a test AHP client that records every action envelope.
type client2 struct {
	c    *ahpclient.Client
	mu   sync.Mutex
	envs []ahpwire.ActionEnvelope
	// notes are the protocol notifications seen (auth/required ...).
	notes []ahpclient.NotificationEvent
	done  chan struct{}
}

// logBuf is a concurrency-safe log sink.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// opts tune newEnv.
type opts struct {
	env      []string
	state    string
	dir      string
	timeout  time.Duration
	maxBytes int64
	command  string // instead of the fake agent
	retain   int64  // the host's TerminalRetainBytes
	args     []string
	// hostState, when set, makes the host durable with its database there.
	hostState string
	// shim starts the agent under the shim (shim.go), the test binary
	// playing ahptui.
	shim bool
	// stdinTimeout is the bridge's Config.StdinTimeout.
	stdinTimeout time.Duration
	// more are agents the host offers beside the fake one (their Dir,
	// StateDir and Logger are the fake one's).
	more []Config
}

// shimFor is the shim of Config.Shim: the test binary, when asked for.
func shimFor(t *testing.T, want bool) string {
	if !want {
		return ""
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

// newEnv starts a host with a bridge to the fake agent and one client.
func newEnv(t *testing.T, o opts) *env {
	t.Helper()
	e := &env{t: t, dir: o.dir, state: o.state, logs: &logBuf{}}
	if e.dir == "" {
		d, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		e.dir = d
	}
	if e.state == "" {
		e.state = t.TempDir()
	}
	e.ctx, e.cancel = context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(e.cancel)
	command := fakeBin
	if o.command != "" {
		command = o.command
	}
	b, err := New(Config{
		Name: "fake", Title: "Fake agent", Command: command, Args: o.args, Env: o.env, Dir: e.dir, StateDir: e.state,
		Logger: slogTo(e.logs), RequestTimeout: o.timeout, MaxFileBytes: o.maxBytes, Shim: shimFor(t, o.shim),
		StdinTimeout: o.stdinTimeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.b = b
	agents := []ahphost.Agent{b}
	for _, c := range o.more {
		c.Dir, c.StateDir, c.Logger = e.dir, e.state, slogTo(e.logs)
		m, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		e.more = append(e.more, m)
		agents = append(agents, m)
	}
	h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: e.dir, Agents: agents, TerminalRetainBytes: o.retain,
		Durable: o.hostState != "", StateDir: o.hostState})
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	e.url, err = h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	e.c = e.dial()
	return e
}

// dial connects one more client that records envelopes.
func (e *env) dial() *client2 {
	e.t.Helper()
	n := e.clients.Add(1)
	c, err := ahpclient.New(ahpclient.Options{URL: e.url, StateDir: e.t.TempDir(), ClientID: fmt.Sprintf("test-client-%d", n)})
	if err != nil {
		e.t.Fatal(err)
	}
	k := &client2{c: c, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(k.done)
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				return
			}
			if en, ok := ev.(ahpclient.EnvelopeEvent); ok {
				k.mu.Lock()
				k.envs = append(k.envs, en.Envelope)
				k.mu.Unlock()
				en.Ack()
			}
			if n, ok := ev.(ahpclient.NotificationEvent); ok {
				k.mu.Lock()
				k.notes = append(k.notes, n)
				k.mu.Unlock()
			}
		}
	}()
	e.t.Cleanup(func() { _ = c.Close(); cancel(); <-k.done })
	if err := c.Start(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	return k
}

// newSession creates a session of the fake agent in e.dir and subscribes
// to its default chat; it returns the session and chat URIs.
func (e *env) newSession(k *client2, id string) (string, string) {
	e.t.Helper()
	session := "ahp-session:/" + id
	if err := k.c.CreateSession(e.ctx, ahpwire.CreateSessionParams{Channel: session, Provider: "fake",
		WorkingDirectories: []string{fileURI(e.dir)}}); err != nil {
		e.t.Fatal(err)
	}
	return session, e.open(k, session)
}

// open subscribes to a session and its default chat.
func (e *env) open(k *client2, session string) string {
	e.t.Helper()
	var chat string
	e.eventually("session ready", func() bool {
		snap, err := k.c.Subscribe(e.ctx, session, nil)
		if err != nil {
			e.t.Fatal(err)
		}
		var ss ahpwire.SessionState
		_ = json.Unmarshal(snap.State, &ss)
		chat = ss.DefaultChat
		return ss.Lifecycle == ahpwire.LifecycleReady
	})
	if _, err := k.c.Subscribe(e.ctx, chat, nil); err != nil {
		e.t.Fatal(err)
	}
	return chat
}

// eventually polls cond until it holds (condition-based waiting; the
// test's context bounds it).
func (e *env) eventually(what string, cond func() bool) {
	e.t.Helper()
	for !cond() {
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("timed out waiting for %s\nlogs:\n%s", what, e.logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// prompt starts a turn with text and returns its id.
func (e *env) prompt(k *client2, chat, id, text string) string {
	e.t.Helper()
	if _, err := k.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnStarted{TurnID: id, StartedAt: "2026-11-27T00:00:00.000Z",
		Message: ahpwire.UserMessage(text)}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// chatState returns the chat's current state.
func (e *env) chatState(k *client2, chat string) ahpwire.ChatState {
	e.t.Helper()
	snap, err := k.c.Subscribe(e.ctx, chat, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := ahpwire.DecodeChatState(snap.State)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// finished waits for turn id to end and returns it.
func (e *env) finished(k *client2, chat, id string) ahpwire.Turn {
	e.t.Helper()
	var turn ahpwire.Turn
	e.eventually("turn "+id+" to end", func() bool {
		st := e.chatState(k, chat)
		for _, t := range st.Turns {
			if t.ID == id {
				turn = t
				return true
			}
		}
		return false
	})
	return turn
}

// run sends text as a new turn and waits for its end.
func (e *env) run(k *client2, chat, id, text string) ahpwire.Turn {
	e.t.Helper()
	e.prompt(k, chat, id, text)
	return e.finished(k, chat, id)
}

// markdown joins the turn's markdown parts.
func markdown(t ahpwire.Turn) string {
	var b strings.Builder
	for _, p := range t.ResponseParts {
		if p.Kind == ahpwire.PartMarkdown {
			b.WriteString(p.Content)
		}
	}
	return b.String()
}

// toolCalls returns the turn's tool calls.
func toolCalls(parts []ahpwire.ResponsePart) []*ahpwire.ToolCallState {
	var out []*ahpwire.ToolCallState
	for _, p := range parts {
		if p.ToolCall != nil {
			out = append(out, p.ToolCall)
		}
	}
	return out
}

// actions returns the types of the envelopes k saw on chat for turn id.
func (k *client2) actions(chat string) []ahpwire.ActionEnvelope {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []ahpwire.ActionEnvelope
	for _, en := range k.envs {
		if en.Channel == chat {
			out = append(out, en)
		}
	}
	return out
}

// errText returns the turn's error message (the error part's, else the
// turn's error).
func errText(t ahpwire.Turn) string {
	for _, p := range t.ResponseParts {
		if p.Error != nil {
			return p.Error.Message
		}
	}
	if t.Error != nil {
		return t.Error.Message
	}
	return ""
}
