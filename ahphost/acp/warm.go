package acp

import (
	"context"
	"net/url"

	sdk "github.com/coder/acp-go-sdk"
)

// spareSession is an ACP session created ahead of its AHP session to learn
// the agent's configuration (ACP tells modes, models and options only in
// session/new's answer); the next new session in the same directory uses it.
type spareSession struct {
	dir    string
	id     string
	values map[string]string
	proc   *proc
}

// warmUpRun is the one warm-up: its resolved directory, and done, closed
// when its session/new answered (or failed).
type warmUpRun struct {
	dir  string
	done chan struct{}
}

// warmUp starts the agent and opens a spare session in dir in the
// background, once, when a client asks for the configuration before the
// agent ever told it (the new-session form opening is the demand).
func (b *Bridge) warmUp(dirURI string) {
	dir := b.cfg.Dir
	if u, err := url.Parse(dirURI); err == nil && u.Scheme == "file" && u.Path != "" {
		dir = u.Path
	}
	dir, err := b.resolveDir(dir)
	if err != nil {
		return
	}
	b.mu.Lock()
	if b.warming || b.closed {
		b.mu.Unlock()
		return
	}
	b.warming = true
	w := &warmUpRun{dir: dir, done: make(chan struct{})}
	b.warm = w
	b.wg.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.wg.Done()
		defer close(w.done)
		ctx, cancel := context.WithTimeout(b.ctx, 2*b.cfg.RequestTimeout)
		defer cancel()
		p, err := b.getProc(ctx)
		if err != nil {
			b.log.Warn("starting the agent to learn its configuration", "err", err)
			return
		}
		res, err := p.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
		if err != nil {
			b.log.Warn("session/new to learn the configuration", "err", err)
			return
		}
		models := p.legacy.modelsOf(res.SessionId)
		b.learnSchema(res.Modes, models, res.ConfigOptions)
		b.mu.Lock()
		b.spare = &spareSession{dir: dir, id: string(res.SessionId), values: currentValues(res.Modes, models, res.ConfigOptions), proc: p}
		b.mu.Unlock()
	}()
}

// awaitWarm waits (bounded by ctx) for a warm-up in flight in dir: its
// session becomes the new session's, so a session created while the agent
// starts leaves no second, unused session in the agent's store.
func (b *Bridge) awaitWarm(ctx context.Context, dir string) {
	b.mu.Lock()
	w := b.warm
	b.mu.Unlock()
	if w == nil || w.dir != dir {
		return
	}
	select {
	case <-w.done:
	case <-ctx.Done():
	}
}

// takeSpare returns the spare session for dir on p (and forgets it).
func (b *Bridge) takeSpare(dir string, p *proc) *spareSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	sp := b.spare
	if sp == nil || sp.dir != dir || sp.proc != p {
		return nil
	}
	b.spare = nil
	return sp
}
