// Package tmuxctl drives a tmux session through one control-mode client
// (`tmux -C attach`): commands and their answers over a pipe, and a signal
// whenever the session's panes write output. Measurements that poll the
// screen (keystroke echo) use it instead of running `tmux capture-pane`
// once per poll: a fork and exec per poll cost more than the latency being
// measured on a loaded two-core machine.
package tmuxctl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// PrivateEnv is env for a tmux command that must reach only the private
// server under tmpdir (its TMUX_TMPDIR; "" keeps env's): TMUX and
// TMUX_PANE are dropped, because tmux prefers the server named by $TMUX
// (the one a caller runs inside) to TMUX_TMPDIR, and a test's
// `tmux kill-server` would end the user's own tmux.
func PrivateEnv(env []string, tmpdir string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "TMUX" || k == "TMUX_PANE" || (k == "TMUX_TMPDIR" && tmpdir != "") {
			continue
		}
		out = append(out, kv)
	}
	if tmpdir != "" {
		out = append(out, "TMUX_TMPDIR="+tmpdir)
	}
	return out
}

// Command is `tmux args...` on the private server of this process's
// TMUX_TMPDIR, never the one it may run inside (PrivateEnv).
func Command(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", args...)
	cmd.Env = PrivateEnv(os.Environ(), "")
	return cmd
}

// Client is one control-mode client attached to a tmux session.
type Client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex // one command in flight at a time
	blocks chan block
	output chan struct{} // a pane wrote output since the last Output wait
	done   chan struct{} // the reader ended
	err    error         // why the reader ended (read after done)
}

// block is the answer to one command: its lines, or its error.
type block struct {
	lines []string
	err   error
}

// Attach starts `tmux -C attach-session -t target` (with the environment
// of this process but TMUX, so TMUX_TMPDIR selects the server: Command)
// and waits for its greeting.
func Attach(target string) (*Client, error) {
	cmd := Command("-C", "attach-session", "-t", target)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("tmux control stdin: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("tmux control stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start tmux -C: %w", err)
	}
	c := &Client{cmd: cmd, in: in, blocks: make(chan block, 4), output: make(chan struct{}, 1), done: make(chan struct{})}
	go c.read(out)
	// The attach itself is answered with an (empty) block first.
	if _, err := c.next(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("attach to %s: %w", target, err)
	}
	return c, nil
}

// read parses the control-mode stream: %begin … %end/%error blocks are
// answers, %output lines are output notifications, the rest is ignored.
func (c *Client) read(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var cur *block
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur != nil && (strings.HasPrefix(line, "%end ") || strings.HasPrefix(line, "%error ")):
			if strings.HasPrefix(line, "%error ") {
				cur.err = fmt.Errorf("tmux: %s", strings.Join(cur.lines, "; "))
			}
			c.blocks <- *cur
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		case strings.HasPrefix(line, "%begin "):
			cur = &block{}
		case strings.HasPrefix(line, "%output "):
			select {
			case c.output <- struct{}{}:
			default:
			}
		case strings.HasPrefix(line, "%exit"):
			c.err = fmt.Errorf("tmux control client exited: %s", line)
			return
		}
	}
	c.err = fmt.Errorf("tmux control stream: %w", errors.Join(sc.Err(), io.ErrUnexpectedEOF))
}

// next waits for the next answer block.
func (c *Client) next() ([]string, error) {
	select {
	case b := <-c.blocks:
		return b.lines, b.err
	case <-c.done:
		return nil, c.err
	}
}

// Command runs one tmux command line (e.g. "capture-pane -p -t s") and
// returns the lines it printed.
func (c *Client) Command(line string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return nil, fmt.Errorf("send %q: %w", line, err)
	}
	lines, err := c.next()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", line, err)
	}
	return lines, nil
}

// Output returns a channel that receives once after any pane of the
// session wrote output (notifications in between are merged).
func (c *Client) Output() <-chan struct{} { return c.output }

// Close detaches the client and waits for it to exit.
func (c *Client) Close() error {
	_ = c.in.Close() // EOF on stdin detaches a control client
	err := c.cmd.Wait()
	if err != nil {
		return fmt.Errorf("tmux -C: %w", err)
	}
	return nil
}
