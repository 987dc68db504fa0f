package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/safefile"
)

// `ahptui serve --detach` starts the host as a daemon: a child serve in a
// session and process group of its own (setsid), standard input from
// /dev/null, standard output discarded (its first line holds the token) and
// standard error appended to serveLogName in the state directory. The
// parent waits until the child has written its state file (serve.json),
// prints the connect URL like serve does, and exits: the host then outlives
// the SSH connection or terminal that started it, and `ahptui ssh` finds it
// again through its state file.

// serveLogName is the detached host's log in the state directory.
const serveLogName = "serve.log"

// serveLogMax is the size above which the log is rotated (to serve.log.1)
// when a detached host starts.
const serveLogMax = 8 << 20

// detachedEnv marks the detached child (its state file says so).
const detachedEnv = "AHPTUI_SERVE_DETACHED"

// detachReadyTimeout bounds the wait for the detached host's state file.
const detachReadyTimeout = 30 * time.Second

// detachServe starts the detached host with args (its own serve arguments,
// --detach removed) and prints its URL to std.out.
func detachServe(args []string, configFile string, std stdio) int {
	dir, err := stateDir(lookupEnv)
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		fmt.Fprintln(std.err, "ahptui: serve --detach:", err)
		return exitError
	}
	logPath := filepath.Join(dir, serveLogName)
	if st, err := os.Stat(logPath); err == nil && st.Size() > serveLogMax {
		_ = os.Rename(logPath, logPath+".1")
	}
	logf, err := safefile.OpenAppend(logPath, 0o600)
	if err != nil {
		fmt.Fprintln(std.err, "ahptui: serve --detach: the log:", err)
		return exitError
	}
	defer logf.Close()
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(std.err, "ahptui: serve --detach: find this program:", err)
		return exitError
	}
	var child []string
	if configFile != "" {
		child = append(child, "--config", configFile)
	}
	child = append(append(child, "serve"), withoutDetach(args)...)
	fmt.Fprintf(logf, "--- %s: ahptui %s starting detached\n", time.Now().Format(time.RFC3339), version)
	cmd := exec.Command(exe, child...)
	cmd.Env = append(os.Environ(), detachedEnv+"=1")
	cmd.Stderr = logf // stdin and stdout: /dev/null
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(std.err, "ahptui: serve --detach:", err)
		return exitError
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	st, err := waitServeState(filepath.Join(dir, serveStateName), cmd.Process.Pid, exited)
	if err != nil {
		_ = cmd.Process.Kill()
		fmt.Fprintf(std.err, "ahptui: serve --detach: %v; the log (%s) ends:\n%s", err, logPath, logTail(logPath, 5))
		return exitError
	}
	if _, err := fmt.Fprintln(std.out, st.URL); err != nil {
		return exitError
	}
	return exitOK
}

// withoutDetach drops --detach (in any spelling) from serve's arguments.
func withoutDetach(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "detach" {
			continue
		}
		out = append(out, a)
	}
	return out
}

// waitServeState waits until the state file at path names pid (the child
// is listening), the child exits, or detachReadyTimeout passes.
func waitServeState(path string, pid int, exited <-chan struct{}) (serveState, error) {
	deadline := time.Now().Add(detachReadyTimeout)
	for {
		var st serveState
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &st) == nil && st.PID == pid && st.URL != "" {
			return st, nil
		}
		select {
		case <-exited:
			return serveState{}, errors.New("the host exited before it was ready")
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return serveState{}, fmt.Errorf("the host was not ready within %s", detachReadyTimeout)
		}
	}
}

// logTail returns the last n lines of the file at path that the latest
// detached start wrote (after its "--- … starting detached" line), masked.
func logTail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > 16<<10 {
		_, _ = f.Seek(-16<<10, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	// Only this start's lines: the log is shared by every detached start
	// (a running host's "ready" lines above would say the opposite).
	for i := len(lines) - 1; i >= 0; i-- {
		if bytes.HasPrefix(lines[i], []byte("--- ")) && bytes.HasSuffix(lines[i], []byte(" starting detached")) {
			lines = lines[i+1:]
			break
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return maskBytes(append(bytes.Join(lines, []byte("\n")), '\n'))
}

// executablePath is this program's path ("" when unknown), for the state
// file: a host restarted by `ahptui ssh` runs the same program again.
func executablePath() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
