package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/filecomplete"
)

// session is one AHP session and its ACP session.
type session struct {
	uri   string
	dir   string // working directory (absolute, symlinks resolved)
	acpID string // "" until session/new (or after the process died)
	// stale is set when the process that owned acpID died: the next turn
	// resumes or recreates the ACP session.
	stale    bool
	restored bool // listed from the index after a host restart
	// replayed is set once session/load replayed a restored session's
	// history into its chat (b.mu guards it, as stale).
	replayed bool

	openMu sync.Mutex // serialises ensureACP

	mu       sync.Mutex
	replay   *replay  // collecting session/load's replay, else nil
	turn     *turnMap // the running turn, nil between turns
	commands []sdk.AvailableCommand
	applied  map[string]string       // config values last applied to the agent
	files    map[string]*changedFile // changes.go
	seeded   bool                    // files started from the host's changeset, or published (changes.go)
	terms    map[string]*terminal
	termSeq  int
	// prompting is closed when the agent answered the session's last
	// session/prompt (ACP runs one prompt per session at a time).
	prompting chan struct{}
	// shellNotes are the "!" commands run since the last prompt, with
	// their output, for the next one (shell.go).
	shellNotes []string
	fileIndex  *filecomplete.Index // the directory's files for "@" (mention.go)
	cancelled  bool                // the last prompt was cancelled (emptyturn.go)
	failure    sessionFailure      // the agent's last reported error (failures.go)
}

// changedFile is one file the agent wrote through fs/write_text_file or
// with a tool of its own (edits.go).
type changedFile struct {
	path          string // relative to the session dir
	before, after string
	existed       bool
	// changed: changed since the changeset last listed it (its reviewed
	// mark is dropped then).
	changed bool
}

// activeTurn returns the running turn (nil between turns).
func (s *session) activeTurn() *turnMap {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

// setTurn sets the running turn.
func (s *session) setTurn(t *turnMap) {
	s.mu.Lock()
	s.turn = t
	s.mu.Unlock()
}

// waitPrompt waits until the agent answered the session's previous
// prompt (a cancelled turn ends on the host's side before the agent
// answers), at most cancelGrace: a prompt sent meanwhile would take the
// cancelled one's late updates and could be cancelled by its cancel.
func (s *session) waitPrompt(ctx context.Context) error {
	s.mu.Lock()
	ch := s.prompting
	s.mu.Unlock()
	if ch == nil {
		return nil
	}
	t := time.NewTimer(cancelGrace)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// promptStarted notes a session/prompt in flight; the returned func marks
// it answered.
func (s *session) promptStarted() func() {
	ch := make(chan struct{})
	s.mu.Lock()
	s.prompting = ch
	s.mu.Unlock()
	return func() { close(ch) }
}

// clearTurn forgets t unless a newer turn replaced it (the host starts the
// next turn as soon as this one emitted its end).
func (s *session) clearTurn(t *turnMap) {
	s.mu.Lock()
	if s.turn == t {
		s.turn = nil
	}
	s.mu.Unlock()
}

// sessionFor returns the bridge's session for an AHP session URI, creating
// the entry (not the ACP session) on first use.
func (b *Bridge) sessionFor(uri, dir string) (*session, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.sessions[uri]; s != nil {
		return s, nil
	}
	abs, err := b.resolveDir(dir)
	if err != nil {
		return nil, err
	}
	s := &session{uri: uri, dir: abs, applied: map[string]string{}, files: map[string]*changedFile{}, terms: map[string]*terminal{}}
	if b.index != nil {
		if r, ok := b.index.get(uri); ok {
			s.acpID, s.stale, s.restored = r.ACPID, true, true
			if r.Dir != "" {
				// Where it ran: the agent finds its session by it (Claude
				// Code keeps them per project directory), whatever
				// directory the caller, which opens it, assumed.
				s.dir = r.Dir
			}
		}
	}
	b.sessions[uri] = s
	return s, nil
}

// resolveDir makes a session directory absolute with symbolic links
// resolved ("" = Config.Dir).
func (b *Bridge) resolveDir(dir string) (string, error) {
	if dir == "" {
		dir = b.cfg.Dir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("working directory %q: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// sessionByACP returns the session of an ACP session id.
func (b *Bridge) sessionByACP(id sdk.SessionId) *session {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.byACP[string(id)]
}

// errEnded is why opening a restored session the agent cannot resume
// shows no replay (its next prompt starts the agent afresh: ensureACP).
var errEnded = errors.New("this session ended when the host restarted, and the agent cannot resume it")

// Notices opening the first reply of an agent session that replaced one
// the agent could not resume: after the agent crashed, or after the host
// restarted (the chat keeps its turns, the agent does not have them).
const (
	afreshAfterCrash   = "_The agent restarted and cannot resume this conversation: it starts afresh._\n\n"
	afreshAfterRestart = "_The agent could not resume this conversation after the host restarted: it starts afresh, without the earlier messages._\n\n"
)

// ensureACP makes sure s has a live ACP session on p: session/new for a
// new session; session/resume or session/load for a stale one (a fresh
// session/new with notice set when the agent offers neither or they fail:
// after a crash, or after a host restart, when a prompt asks; Gemini CLI
// 0.61 cannot load a session in the minute it was created).
// history is set when the caller wants the agent's replay of a restored
// session (OpenSession); a prompt does not (a durable host has the history
// in its database, issue 28), so it prefers session/resume.
func (b *Bridge) ensureACP(ctx context.Context, p *proc, s *session, firstText string, history bool) (replayed []ahpwire.Turn, notice string, err error) {
	s.openMu.Lock() // one open at a time (a client's open and a prompt may race)
	defer s.openMu.Unlock()
	b.mu.Lock()
	live := s.acpID != "" && !s.stale
	// A restored chat shows nothing until session/load replays its
	// history; session/resume (preferred otherwise: no replay to map)
	// would leave it empty although the agent remembers it.
	wantHistory := history && s.restored && !s.replayed
	b.mu.Unlock()
	if live {
		return nil, "", nil
	}
	// Opening a session is an agent's slowest request (Claude Code's
	// adapter starts Claude Code and asks for its sign-in first: over 30 s
	// on a loaded machine): three times the bound of the others.
	rctx, cancel := context.WithTimeout(ctx, 3*b.cfg.RequestTimeout)
	defer cancel()
	caps := p.init.AgentCapabilities
	if s.acpID != "" {
		switch {
		case caps.SessionCapabilities.Resume != nil && !(wantHistory && caps.LoadSession):
			res, err := p.conn.ResumeSession(rctx, sdk.ResumeSessionRequest{SessionId: sdk.SessionId(s.acpID), Cwd: s.dir, McpServers: []sdk.McpServer{}})
			if err == nil {
				b.log.Info("agent session re-bound", "session", s.uri, "method", "session/resume")
				b.bind(s, s.acpID)
				b.learnSchema(res.Modes, p.legacy.modelsOf(sdk.SessionId(s.acpID)), res.ConfigOptions)
				return nil, "", nil
			}
			b.log.Warn("session/resume failed", "session", s.uri, "err", err)
		case caps.LoadSession:
			// The replayed updates arrive before the answer (the SDK hands
			// a response over only after the notifications before it):
			// they become the turns of the restored chat.
			rp := &replay{}
			s.mu.Lock()
			s.replay = rp
			s.mu.Unlock()
			b.bind(s, s.acpID)
			res, err := p.conn.LoadSession(rctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(s.acpID), Cwd: s.dir, McpServers: []sdk.McpServer{}})
			if err == nil && rp.settle(rctx) { // (replay.go)
				b.log.Info("the agent went on replaying the session after answering session/load", "session", s.uri)
			}
			s.mu.Lock()
			s.replay = nil
			s.mu.Unlock()
			if err == nil {
				turns := rp.result()
				b.log.Info("agent session re-bound", "session", s.uri, "method", "session/load", "replayed_turns", len(turns))
				b.mu.Lock()
				s.replayed = true
				b.mu.Unlock()
				b.learnSchema(res.Modes, p.legacy.modelsOf(sdk.SessionId(s.acpID)), res.ConfigOptions)
				return turns, "", nil
			}
			b.log.Warn("session/load failed", "session", s.uri, "err", err)
		}
		notice = afreshAfterCrash
		if s.restored {
			if history {
				return nil, "", errEnded
			}
			notice = afreshAfterRestart
		}
	}
	var id string
	var values map[string]string
	b.awaitWarm(rctx, s.dir)
	if sp := b.takeSpare(s.dir, p); sp != nil {
		id, values = sp.id, sp.values
	} else {
		res, err := p.conn.NewSession(rctx, sdk.NewSessionRequest{Cwd: s.dir, McpServers: []sdk.McpServer{}})
		if err != nil {
			return nil, "", b.requestError("session/new", err, p)
		}
		models := p.legacy.modelsOf(res.SessionId)
		id, values = string(res.SessionId), currentValues(res.Modes, models, res.ConfigOptions)
		b.learnSchema(res.Modes, models, res.ConfigOptions)
	}
	b.bind(s, id)
	s.mu.Lock()
	s.applied = values
	s.mu.Unlock()
	if b.index != nil {
		rec := indexRecord{URI: s.uri, ACPID: id, Dir: s.dir, CreatedAt: isoNow(b.cfg.Now()), Title: firstLine(firstText)}
		if old, ok := b.index.get(s.uri); ok { // a session started afresh keeps its age and title
			rec.CreatedAt, rec.Title = old.CreatedAt, old.Title
		}
		b.index.put(rec)
	}
	return nil, notice, nil
}

// bind maps s to the ACP session id.
func (b *Bridge) bind(s *session, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.acpID != "" {
		delete(b.byACP, s.acpID)
	}
	s.acpID, s.stale = id, false
	b.byACP[id] = s
}

// requestError turns a failed ACP request into the error a user reads:
// the agent's own message, auth hints, or the process's exit report.
func (b *Bridge) requestError(method string, err error, p *proc) error {
	select {
	case <-p.conn.Done():
		// The connection is gone: an exit (let stderr drain) or a broken
		// stream (an oversized or invalid line): the process is useless.
		select {
		case <-p.exited:
		case <-time.After(exitGrace):
			p.kill()
			<-p.exited
			return fmt.Errorf("the agent broke the connection (a message over 10 MiB or unreadable); %s", p.exitReport())
		}
		return errors.New(p.exitReport())
	default:
	}
	var re *sdk.RequestError
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &re) && strings.Contains(fmt.Sprint(re.Data), context.DeadlineExceeded.Error())) {
		// The SDK reports the bridge's own deadline as an internal error.
		return fmt.Errorf("%s: the agent did not answer in time (it may still be starting: try again)", method)
	}
	if errors.As(err, &re) {
		msg := re.Message
		if re.Data != nil {
			msg += fmt.Sprintf(" (%v)", re.Data)
		}
		if re.Code == -32000 || strings.Contains(strings.ToLower(re.Message), "auth") {
			return &authRequiredError{msg: msg, methods: p.init.AuthMethods}
		}
		return fmt.Errorf("%s: %s", method, msg)
	}
	if !p.alive() {
		return errors.New(p.exitReport())
	}
	return fmt.Errorf("%s: %w", method, err)
}

// firstLine titles a session after its first message (as the host does),
// until the agent names it.
func firstLine(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(strings.TrimSpace(line)); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return strings.TrimSpace(line)
}

// exitGrace is how long a broken connection waits for the process's exit.
const exitGrace = 2 * time.Second

// authHint lists the agent's authentication methods.
func authHint(methods []sdk.AuthMethod) string {
	var names []string
	for _, m := range methods {
		switch {
		case m.Agent != nil:
			n := m.Agent.Name
			if m.Agent.Description != nil {
				n += " (" + *m.Agent.Description + ")"
			}
			names = append(names, n)
		case m.EnvVar != nil:
			names = append(names, m.EnvVar.Name)
		case m.Terminal != nil:
			names = append(names, m.Terminal.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return ". Sign-in methods the agent offers: " + strings.Join(names, "; ")
}

// closeTerminals kills every terminal of the session.
func (s *session) closeTerminals() {
	s.mu.Lock()
	terms := make([]*terminal, 0, len(s.terms))
	for _, t := range s.terms {
		terms = append(terms, t)
	}
	s.terms = map[string]*terminal{}
	s.mu.Unlock()
	for _, t := range terms {
		t.release()
	}
}

// isoNow formats t as the host's ISO-8601 timestamps.
func isoNow(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// partID returns a unique response part id of the turn.
func partID(turnID, kind string, n int) string { return fmt.Sprintf("%s.%s%d", turnID, kind, n) }
