package demo

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// "/demo repl" opens a terminal the user types into: a client claims it
// (terminal/claimed for itself) and its terminal/input reaches a tiny
// line-editing shell (agent.TerminalInputs). Nothing really runs: the
// shell echoes, edits the line (backspace, ctrl+c, ctrl+u) and answers a
// few built-in commands from a fixed virtual project, deterministically.
// The turn (a running run_in_terminal tool call) lasts until `exit`,
// ctrl+d on an empty line or the turn's cancellation.

// Bounds of the demo shell.
const (
	// replMaxLine caps the edited line (bytes); keys beyond ring the bell.
	replMaxLine = 4096
	// replMaxHistory caps the commands `history` remembers.
	replMaxHistory = 100
	// replInputQueue is how many input chunks wait for the shell; the
	// host's handler must not block, so chunks beyond it are dropped (and
	// the shell says so).
	replInputQueue = 256
	// replMaxSeq caps `seq N`.
	replMaxSeq = 1000
)

// replPrompt is the demo shell's coloured prompt.
const replPrompt = sgrGreen + "demo" + sgrReset + ":" + sgrCyan + "~/project" + sgrReset + "$ "

// replFiles is the virtual project `ls` lists.
var replFiles = map[string][]string{
	"":         {"README.md", "cmd/", "docs/", "go.mod", "internal/", "testdata/"},
	"cmd":      {"app/"},
	"cmd/app":  {"main.go"},
	"docs":     {"CHANGES.md"},
	"internal": {"legacy/", "render/"},
	"testdata": {"large.tsv"},
}

// replBanner is printed when the terminal opens. It stays on screen while
// the user types, so it says nothing about claiming the terminal: the
// client's viewer says that, as the claim changes (whose it is, how to
// type, how to give it back); the tool call's invocation message tells
// where to start.
const replBanner = "Demo shell — nothing really runs here; the commands are built in. Try `help`.\r\n"

// replShell is the state of one demo shell: the line being edited, the
// escape sequence being skipped and the commands run so far.
type replShell struct {
	line    []byte
	esc     int // 0: none, 1: after ESC, 2: in CSI, 3: after ESC O
	lastCR  bool
	history []string
	status  int // exit status of the last command
	exit    *int64
	clearAt int // where in feed's output the screen was cleared (`clear`), -1: not
}

// feed edits the line with data and returns what the terminal shows (the
// echo and the answers of the commands it completed).
func (s *replShell) feed(data string) string {
	var out strings.Builder
	s.clearAt = -1
	for i := 0; i < len(data) && s.exit == nil; {
		c := data[i]
		switch s.esc {
		case 1:
			s.esc = 0
			switch c {
			case '[':
				s.esc = 2
			case 'O':
				s.esc = 3
			}
			i++
			continue
		case 2:
			if c >= 0x40 && c <= 0x7e {
				s.esc = 0
			}
			i++
			continue
		case 3:
			s.esc = 0
			i++
			continue
		}
		wasCR := s.lastCR
		s.lastCR = false
		switch c {
		case 0x1b:
			s.esc = 1
		case '\r':
			s.lastCR = true
			s.enter(&out)
		case '\n':
			if !wasCR {
				s.enter(&out)
			}
		case 0x7f, '\b':
			if len(s.line) > 0 {
				_, n := utf8.DecodeLastRune(s.line)
				s.line = s.line[:len(s.line)-n]
				out.WriteString("\b \b")
			}
		case 0x03: // ctrl+c
			s.line = s.line[:0]
			s.status = 130
			out.WriteString("^C\r\n" + replPrompt)
		case 0x15: // ctrl+u
			for range utf8.RuneCount(s.line) {
				out.WriteString("\b \b")
			}
			s.line = s.line[:0]
		case 0x04: // ctrl+d
			if len(s.line) == 0 {
				out.WriteString("exit\r\n")
				code := int64(s.status)
				s.exit = &code
			}
		case 0x0c: // ctrl+l
			out.WriteString("\x1b[H\x1b[2J" + replPrompt + string(s.line))
		default:
			r, n := utf8.DecodeRuneInString(data[i:])
			if r == utf8.RuneError && n <= 1 || r < 0x20 {
				break // other control keys and invalid bytes: ignored
			}
			if len(s.line)+n > replMaxLine {
				out.WriteString("\a")
			} else {
				s.line = append(s.line, data[i:i+n]...)
				out.WriteString(data[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
	return out.String()
}

// enter runs the edited line and prints the next prompt (none after exit).
func (s *replShell) enter(out *strings.Builder) {
	line := strings.TrimSpace(string(s.line))
	s.line = s.line[:0]
	out.WriteString("\r\n")
	if line != "" {
		s.history = append(s.history, line)
		if len(s.history) > replMaxHistory {
			s.history = s.history[1:]
		}
	}
	answer, status := s.run(line)
	out.WriteString(answer)
	if line == "clear" {
		s.clearAt = out.Len()
	}
	s.status = status
	if s.exit == nil {
		out.WriteString(replPrompt)
	}
}

// run answers one command line.
func (s *replShell) run(line string) (string, int) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", s.status
	}
	args := fields[1:]
	switch fields[0] {
	case "help":
		return "Built-in commands (nothing really runs):\r\n" +
			"  help           this list\r\n  echo TEXT      print TEXT\r\n  pwd            the working directory\r\n" +
			"  ls [dir]       the virtual project\r\n  whoami         the user\r\n  seq N          numbers 1 to N (N ≤ 1000)\r\n" +
			"  history        the commands so far\r\n  clear          clear the screen\r\n  exit [N]       end with exit code N\r\n" +
			"Keys: backspace, ctrl+c (drop the line), ctrl+u (erase it), ctrl+l, ctrl+d (exit on an empty line).\r\n", 0
	case "echo":
		return strings.Join(args, " ") + "\r\n", 0
	case "pwd":
		return "/home/demo/project\r\n", 0
	case "whoami":
		return "demo\r\n", 0
	case "ls":
		dir := ""
		if len(args) > 0 {
			dir = strings.Trim(strings.TrimPrefix(args[0], "./"), "/")
		}
		names, ok := replFiles[dir]
		if !ok {
			return fmt.Sprintf("ls: cannot access '%s': No such file or directory\r\n", sanitizeEcho(args[0])), 2
		}
		return strings.Join(names, "  ") + "\r\n", 0
	case "seq":
		n, err := 0, error(nil)
		if len(args) == 1 {
			n, err = strconv.Atoi(args[0])
		}
		if len(args) != 1 || err != nil || n < 1 || n > replMaxSeq {
			return fmt.Sprintf("seq: usage: seq N (1 to %d)\r\n", replMaxSeq), 1
		}
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(strconv.Itoa(i) + "\r\n")
		}
		return b.String(), 0
	case "history":
		var b strings.Builder
		for i, h := range s.history {
			fmt.Fprintf(&b, "%5d  %s\r\n", i+1, sanitizeEcho(h))
		}
		return b.String(), 0
	case "clear":
		return "", 0
	case "exit":
		code := int64(0)
		if len(args) > 0 {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 0 || n > 255 {
				return "exit: " + sanitizeEcho(args[0]) + ": numeric argument from 0 to 255 required\r\n", 2
			}
			code = int64(n)
		}
		s.exit = &code
		return "", int(code)
	}
	return fmt.Sprintf("demo-sh: %s: command not found (this demo shell runs nothing; type help)\r\n", sanitizeEcho(fields[0])), 127
}

// sanitizeEcho drops control characters from text the shell repeats.
func sanitizeEcho(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// repl runs "/demo repl".
func (r *run) repl() error {
	ch := r.t.Channels
	ti, ok := ch.(agent.TerminalInputs)
	if ch == nil || !ok {
		return r.answerOnly("This host does not let clients type into an agent's terminal, so the demo cannot open one here.\n")
	}
	uri := TerminalURI(r.t.Chat, r.t.TurnID, "repl")
	const title = "demo-sh (interactive)"
	spec := toolSpec{
		id: r.toolCallID("run_in_terminal"), name: "run_in_terminal", display: "Run in terminal",
		intention:  "Open an interactive demo shell",
		input:      toolInputJSON(kv{"command", "demo-sh"}, kv{"isPty", true}),
		invocation: "Running `demo-sh` — claim the terminal to type into it",
		pastTense:  "Ran `demo-sh`",
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	ch.OpenTerminal(uri, ahpwire.TerminalState{
		Title: title, Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30), Cwd: "file:///home/demo/project",
		Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: r.t.Chat, TurnID: r.t.TurnID, ToolCallID: spec.id},
	})
	inputs := make(chan string, replInputQueue)
	var dropped atomic.Int64
	ti.OnTerminalInput(uri, func(data string) { // runs with the host lock held: never blocks
		select {
		case inputs <- data:
		default:
			dropped.Add(int64(len(data)))
		}
	})
	defer ti.OnTerminalInput(uri, nil)
	if tr, ok := ch.(agent.TerminalResizes); ok {
		// Clients size the terminal to their views; nothing runs behind it
		// (their emulators wrap the output), so any size will do.
		tr.OnTerminalResize(uri, func(cols, rows int) {})
		defer tr.OnTerminalResize(uri, nil)
	}
	term := ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: uri, Title: title, IsPty: ahpwire.Ptr(true)}
	if err := r.emit(&ahpwire.ChatToolCallContentChanged{TurnID: r.t.TurnID, ToolCallID: spec.id,
		Content: []ahpwire.ToolResultContent{term}}); err != nil {
		return err
	}
	ch.Terminal(uri, &ahpwire.TerminalData{Data: replBanner + replPrompt})
	sh := &replShell{}
	client := r.t.Client
	for sh.exit == nil {
		select {
		case <-r.ctx.Done():
			return r.ctx.Err()
		case _, ok := <-client: // nothing to answer while the shell runs; keep the host's buffer drained
			if !ok {
				client = nil
			}
		case data := <-inputs:
			out := sh.feed(data)
			if sh.clearAt >= 0 { // what came before the clear is gone with it
				out = out[sh.clearAt:]
				ch.Terminal(uri, &ahpwire.TerminalCleared{})
			}
			if n := dropped.Swap(0); n > 0 { // (after the cut: clearAt counts feed's output)
				out = fmt.Sprintf("\r\n[%d bytes of input were dropped: typed faster than the shell reads]\r\n", n) + out
			}
			if out != "" {
				ch.Terminal(uri, &ahpwire.TerminalData{Data: out})
			}
		}
	}
	exit := *sh.exit
	last := "exit " + strconv.FormatInt(exit, 10)
	if n := len(sh.history); n > 0 {
		last = sanitizeEcho(sh.history[n-1])
	}
	if err := r.endTerminal(spec, term, exit, last); err != nil {
		return err
	}
	if err := r.streamMarkdown(fmt.Sprintf("The demo shell ended with exit code %d after %d commands.\n", exit, len(sh.history))); err != nil {
		return err
	}
	return r.complete()
}
