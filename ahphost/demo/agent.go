package demo

import (
	"context"
	"errors"
	"fmt"
	"github.com/ahptui/ahptui/ahphost/agent"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Provider and model identifiers the demo agent advertises.
const (
	ProviderID = "demo"
	ModelID    = "demo-1"
)

// DefaultPace is a human-readable streaming pace for interactive use
// (`ahptui demo`, `ahptui serve`): a plain answer takes about two seconds.
const DefaultPace = 15 * time.Millisecond

// ErrClientClosed is returned by Run when Turn.Client is closed while the
// agent waits for a client decision (a confirmation or input answers).
var ErrClientClosed = agent.ErrClientClosed

// ErrBadTurn is returned by Run for a Turn without Emit or TurnID.
var ErrBadTurn = errors.New("demo: turn needs TurnID and Emit")

// Options configure an Agent. The zero value is valid: no working directory
// (the read-only tools then report an error result) and instant streaming.
type Options struct {
	// Dir is the working directory served read-only by list_files and
	// read_file.
	Dir string
	// Pace is the delay between streamed deltas; 0 streams instantly (tests).
	Pace time.Duration
	// SlowPace is the delay between lines of /demo slow; 0 means 4×Pace.
	SlowPace time.Duration
	// Now is the clock used for turn durations; nil means time.Now. Tests
	// pass a fixed clock to make whole action sequences comparable.
	Now func() time.Time
}

// Agent is the deterministic scripted demo agent. It holds no per-turn state;
// one Agent may run any number of turns concurrently.
type Agent struct {
	opts    Options
	files   fileIndex   // "@" completions (complete.go)
	connect connectInfo // how the host is reached (/demo url)
}

// New returns an Agent with the given options.
func New(o Options) *Agent {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SlowPace == 0 {
		o.SlowPace = 4 * o.Pace
	}
	return &Agent{opts: o}
}

// Providers returns the agents RootState.agents lists: one "demo" provider
// with two models and one optional protected resource (/demo auth).
func (a *Agent) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{
		Provider:    ProviderID,
		DisplayName: "Demo agent",
		Description: "A scripted, deterministic coding agent built into ahptui. Type /demo help for its tricks.",
		Models: []ahpwire.SessionModelInfo{{
			ID:               ModelID,
			Provider:         ProviderID,
			Name:             "Demo 1 (scripted)",
			MaxContextWindow: ahpwire.Ptr(int64(128000)),
			MaxOutputTokens:  ahpwire.Ptr(int64(16384)),
		}, {
			ID:               ModelTerseID,
			Provider:         ProviderID,
			Name:             "Demo 2 (terse)",
			MaxContextWindow: ahpwire.Ptr(int64(32000)),
			MaxOutputTokens:  ahpwire.Ptr(int64(4096)),
		}},
		ProtectedResources: []ahpwire.ProtectedResourceMetadata{DemoResource()},
	}}
}

// Turn is one turn the host hands to an Agent (the host's contract, see
// package ahphost/agent).
type Turn = agent.Turn

// Run streams one turn and returns when it has ended: after emitting
// chat/turnComplete or chat/error it returns nil. When ctx is cancelled it
// stops promptly, starts no further Emit once it has seen the cancellation
// (the host emits chat/turnCancelled) and returns ctx.Err(). It returns ErrClientClosed if Client is closed while
// the agent waits for a decision; the turn is then left to the host to end.
func (a *Agent) Run(ctx context.Context, t Turn) error {
	if t.Emit == nil || t.TurnID == "" {
		return ErrBadTurn
	}
	r := newRun(ctx, a.opts, t)
	r.connect = a.connect.Load()
	err := r.script()
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("demo: turn %s: %w", t.TurnID, err)
	}
	return nil
}

// Factory returns a demo Agent rooted at dir with the given pace and clock,
// in the shape of ahphost.NewDefaultAgent (tests set it to this).
func Factory(dir string, pace time.Duration, now func() time.Time) agent.Agent {
	return New(Options{Dir: dir, Pace: pace, Now: now})
}
