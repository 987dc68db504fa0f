package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// discoverScript runs on the remote machine (any POSIX sh) and prints, over
// the SSH channel, the state file of a live `ahptui serve` and pi-ahp's
// settings. Tokens travel on that channel only, never on a command line.
const discoverScript = `d="${XDG_STATE_HOME:-$HOME/.local/state}/ahptui"; f="$d/serve.json"
if [ -r "$f" ]; then pid=$(sed -n "s/.*\"pid\":\([0-9]*\).*/\1/p" "$f")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "@@AHPTUI-SERVE"; cat "$f"; echo; fi; fi
p="$HOME/.pi/ahp/settings.json"; if [ -r "$p" ]; then echo "@@AHPTUI-PI"; cat "$p"; echo; fi
echo "@@AHPTUI-END"`

// discoverTimeout bounds the discovery command.
const discoverTimeout = 30 * time.Second

// remoteHost is an AHP host found on the remote machine.
type remoteHost struct {
	kind   string // "ahptui serve", "pi-ahp", "--port", "--socket", "--start"
	target string // host:port or a socket path, as seen from the remote machine
	token  string
}

// piSettings is the part of ~/.pi/ahp/settings.json ahptui reads.
type piSettings struct {
	Host  string          `json:"host"`
	Port  json.RawMessage `json:"port"`
	Token string          `json:"token"`
}

// discover runs discoverScript over ssh and returns what it found first:
// a live `ahptui serve`, then a pi-ahp host. ok is false when neither exists.
func discover(ctx context.Context, sshBin string, base []string, dest string) (remoteHost, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	args := append(append([]string(nil), base...), "-T", "--", dest, "exec sh -c '"+discoverScript+"'")
	cmd := exec.CommandContext(ctx, sshBin, args...)
	stderr := &syncBuf{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.Is(err, exec.ErrNotFound) || !errors.As(err, &ee) && strings.Contains(err.Error(), "executable file not found") {
			return remoteHost{}, false, fmt.Errorf("ssh is not installed (or not in PATH): %w", err)
		}
		return remoteHost{}, false, sshError("ssh "+dest+" failed", stderr.String())
	}
	sections := splitSections(string(out))
	if _, ok := sections["END"]; !ok {
		return remoteHost{}, false, errors.New("the remote discovery did not finish (is the remote shell POSIX?)")
	}
	if s, ok := sections["SERVE"]; ok {
		var st serveState
		if err := json.Unmarshal([]byte(s), &st); err == nil && st.Addr != "" {
			return remoteHost{kind: "ahptui serve", target: st.Addr, token: st.Token}, true, nil
		}
	}
	if s, ok := sections["PI"]; ok {
		if h, ok := parsePi(s); ok {
			return h, true, nil
		}
	}
	return remoteHost{}, false, nil
}

// splitSections splits the script's output at its @@AHPTUI- markers.
func splitSections(out string) map[string]string {
	m := map[string]string{}
	cur := ""
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	flush := func() {
		if cur != "" {
			m[cur] = b.String()
		}
		b.Reset()
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "@@AHPTUI-") {
			flush()
			cur = strings.TrimPrefix(line, "@@AHPTUI-")
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	flush()
	return m
}

// parsePi reads pi-ahp's settings: host (default 127.0.0.1), port, token.
func parsePi(s string) (remoteHost, bool) {
	var p piSettings
	if json.Unmarshal([]byte(s), &p) != nil {
		return remoteHost{}, false
	}
	port, err := strconv.Atoi(strings.Trim(string(p.Port), `"`))
	if err != nil || port < 1 || port > 65535 {
		return remoteHost{}, false
	}
	host := p.Host
	if host == "" || host == "0.0.0.0" || host == "localhost" {
		host = "127.0.0.1"
	}
	return remoteHost{kind: "pi-ahp", target: net.JoinHostPort(host, strconv.Itoa(port)), token: p.Token}, true
}

// startRemoteServe starts `ahptui serve` on the remote machine for the
// lifetime of the SSH connection (it exits when its stdin closes) and
// reads the URL, token included, from its first line.
func startRemoteServe(ctx context.Context, sshBin string, base []string, dest, remoteBin string) (remoteHost, func(), <-chan struct{}, error) {
	args := append(append([]string(nil), base...), "-T", "--", dest,
		"exec "+shellQuote(remoteBin)+" serve --addr 127.0.0.1:0 --exit-with-stdin")
	cmd := exec.Command(sshBin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return remoteHost{}, nil, nil, fmt.Errorf("ssh: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return remoteHost{}, nil, nil, fmt.Errorf("ssh: %w", err)
	}
	stderr := &syncBuf{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return remoteHost{}, nil, nil, fmt.Errorf("start ssh: %w", err)
	}
	stop := func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line := make(chan string, 1)
	ended := make(chan struct{}) // the remote serve's output ended: it (or its ssh) is gone
	go func() {
		defer close(ended)
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		line <- strings.TrimSpace(l)
		_, _ = io.Copy(io.Discard, r)
	}()
	var first string
	select {
	case first = <-line:
	case <-time.After(discoverTimeout):
	case <-ctx.Done():
	}
	u, err := url.Parse(first)
	if first == "" || err != nil || u.Host == "" {
		stop()
		return remoteHost{}, nil, nil, sshError("could not start ahptui serve on "+dest+" (is "+remoteBin+" installed there?)", stderr.String())
	}
	return remoteHost{kind: "--start", target: u.Host, token: u.Query().Get("tkn")}, stop, ended, nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
