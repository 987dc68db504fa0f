package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/ahptui/ahptui/ahpwire"
)

// exec's exit codes: distinct, documented in execUsage.
const (
	execCompleted   = 0   // the turn completed
	execFailed      = 1   // the turn ended with an error (or a runtime failure)
	execUsageErr    = 2   // command-line or config mistake
	execConnect     = 3   // cannot connect, or the connection failed for good
	execCancelled   = 4   // the turn was cancelled, or a tool call was denied
	execNeedsInput  = 5   // the host asked a question (or an approval that cannot be asked)
	execInterrupted = 130 // SIGINT (other signals: 128+N); the turn is cancelled
)

// execUsage is `ahptui exec --help`.
const execUsage = `usage: ahptui exec [URL|@NAME] [--session ID] [--json] [--approve never|always|ask] [--timeout D] [--agent NAME] [--cwd DIR] [--mode MODE] [--model MODEL] [PROMPT...]

Runs one turn without the UI and prints the answer as plain markdown (no
colours or escape sequences) on stdout; a line per tool call and approval
goes to stderr.
Without PROMPT the prompt is read from stdin (when stdin is not a terminal).
Without --session a new session is created; its id is printed on stderr.

Flags:
  --session ID    send into this session (its id or ahp-session: URI)
  --json          write one JSON object per line (NDJSON) instead: turn_started,
                  text, reasoning, tool_call, approval_request, input_requested, activity
                  (the agent's retries), turn_end
  --approve MODE  tool calls that need approval: never (deny), always (approve),
                  ask (default: ask on the controlling terminal; without one the
                  command stops with exit code 5)
  --timeout D     give up (and cancel the turn) after D, e.g. 5m (default: none)
  --agent NAME    the agent of a new session when the host offers several
  --cwd DIR       the new session's working directory (default: the current one)
  --mode MODE     the agent's session mode, e.g. Claude Code's default, acceptEdits,
                  plan (an id or a name; a wrong one lists the agent's)
  --model MODEL   the agent's model (an id or a name)

Exit codes:
  0 completed, 1 the turn failed, 2 usage error, 3 cannot connect (or the
  connection failed for good), 4 cancelled or a tool call denied, 5 the host
  needs input (a question, or an approval with no terminal to ask),
  130 interrupted (SIGINT; the turn is cancelled), 128+N other signals
`

// execOpts is the parsed exec command line.
type execOpts struct {
	name, url string
	session   string
	json      bool
	approve   string
	timeout   time.Duration
	prompt    string
	agent     string // --agent: the new session's provider ("" = the host's first)
	cwd       string // --cwd: the new session's working directory ("" = the current one)
	mode      string // --mode: the session's mode ("" = the agent's)
	model     string // --model: the session's model ("" = the agent's)
}

// parseExec parses exec's arguments; stdin supplies the prompt when none
// is given and it is not a terminal.
func parseExec(args []string, stdin io.Reader) (execOpts, error) {
	var o execOpts
	o.name, o.url, args = splitTarget(args)
	fs := flag.NewFlagSet("ahptui exec", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.session, "session", "", "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.StringVar(&o.approve, "approve", "ask", "")
	fs.DurationVar(&o.timeout, "timeout", 0, "")
	fs.StringVar(&o.agent, "agent", "", "")
	fs.StringVar(&o.cwd, "cwd", "", "")
	fs.StringVar(&o.mode, "mode", "", "")
	fs.StringVar(&o.model, "model", "", "")
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return o, err //nolint:wrapcheck // flag.ErrHelp is checked by the caller
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if len(words) == 0 && o.name == "" && o.url == "" {
			if n, u, rest := splitTarget(args); n != "" || u != "" {
				o.name, o.url, args = n, u, rest
				continue
			}
		}
		words = append(words, args[0])
		args = args[1:]
	}
	switch o.approve {
	case "never", "always", "ask":
	default:
		return o, usagef("--approve must be never, always or ask, not %q", o.approve)
	}
	if o.timeout < 0 {
		return o, usagef("--timeout must not be negative")
	}
	o.prompt = strings.Join(words, " ")
	if o.prompt == "" && stdin != nil && !isTerminal(stdin) {
		b, err := io.ReadAll(io.LimitReader(stdin, 16<<20))
		if err != nil {
			return o, fmt.Errorf("read the prompt from stdin: %w", err)
		}
		o.prompt = string(b)
	}
	if strings.TrimSpace(o.prompt) == "" {
		return o, usagef("exec needs a prompt (an argument, or on stdin)")
	}
	return o, nil
}

// isTerminal reports whether r is a terminal.
func isTerminal(r any) bool {
	f, ok := r.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// runExec implements `ahptui exec`.
func runExec(cfg config, std stdio) int {
	o, err := parseExec(cfg.subArgs, std.in)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(std.out, execUsage)
		return execCompleted
	}
	if err != nil {
		printErr(std.err, "ahptui: exec: %v\n%s", err, strings.SplitN(execUsage, "\n", 2)[0]+"\n")
		return execUsageErr
	}
	ctx, caught, stop := watchSignals(context.Background())
	defer stop()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	h, code := connectHeadless(ctx, cfg, std, o.name, o.url)
	if h == nil {
		if sig := caught(); sig != nil {
			return signalExitCode(sig)
		}
		return code
	}
	defer h.close()
	out := newEventWriter(std.out, o.json)
	out.notes = std.err
	r := &turnRun{h: h, o: o, std: std, out: out, caught: caught}
	code = r.run(ctx)
	out.pump(true) // pages still being read print before exec exits
	return code
}

// errSetupTimeout is exec giving up on opening the session.
var errSetupTimeout = errors.New("gave up")

// execSetupTimeout bounds opening the session (subscribe, waiting for it
// to be ready, subscribing its chat), whatever the host answers.
var execSetupTimeout = 60 * time.Second

// openSession returns the chat to send into: the --session's default
// chat, or that of a new session. It gives up after execSetupTimeout.
func (r *turnRun) openSession(ctx context.Context) (session, chat string, err error) {
	d := r.h.d
	parent, opening := ctx, ""
	sctx, cancel := context.WithTimeout(ctx, execSetupTimeout)
	defer cancel()
	defer func() {
		if err != nil && parent.Err() == nil && sctx.Err() != nil {
			err = fmt.Errorf("the host did not make session %s ready within %v: %w", opening, execSetupTimeout, errSetupTimeout)
		}
	}()
	ctx = sctx
	var config map[string]json.RawMessage
	if want := r.o.wantedConfig(); want != nil {
		if config, err = r.resolveWanted(ctx, want); err != nil {
			return "", "", err
		}
	}
	if r.o.session != "" {
		session = sessionURI(r.o.session)
	} else {
		session = "ahp-session:/" + newUUID()
		p, err := newSessionParams(session, r.o.agent, r.o.cwd)
		if err != nil {
			return "", "", err
		}
		p.Config = config
		if err := r.h.c.CreateSession(ctx, p); err != nil {
			return "", "", fmt.Errorf("create session: %w", err)
		}
		if !r.o.json {
			printErr(r.std.err, "ahptui: session %s\n", strings.TrimPrefix(session, "ahp-session:/"))
		}
	}
	opening = session
	if err := d.subscribeSession(ctx, session); err != nil {
		return "", "", err
	}
	if config != nil && r.o.session != "" {
		if _, err := r.h.c.Dispatch(ctx, session, &ahpwire.SessionConfigChanged{Config: config}); err != nil {
			return "", "", fmt.Errorf("set the session's %s: %w", strings.Join(sortedKeys(config), " and "), err)
		}
	}
	if chat, err = d.waitChat(ctx, session); err != nil {
		return "", "", err
	}
	if err := d.subscribeChat(ctx, chat); err != nil {
		return "", "", err
	}
	return session, chat, nil
}
