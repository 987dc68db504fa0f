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
// the SSH channel, the state file of a live `ahptui serve`, pi-ahp's
// settings, and what bootstrapping needs: the machine (uname -sm), the
// directory of the ahptui binaries `ahptui ssh` installed and its entries,
// and the ahptui in PATH with its version. Tokens travel on that channel
// only, never on a command line.
const discoverScript = `d="${XDG_STATE_HOME:-$HOME/.local/state}/ahptui"; f="$d/serve.json"
if [ -r "$f" ]; then pid=$(sed -n "s/.*\"pid\":\([0-9]*\).*/\1/p" "$f")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "@@AHPTUI-SERVE"; cat "$f"; echo; fi; fi
p="$HOME/.pi/ahp/settings.json"; if [ -r "$p" ]; then echo "@@AHPTUI-PI"; cat "$p"; echo; fi
echo "@@AHPTUI-UNAME"; uname -sm
b="${XDG_DATA_HOME:-$HOME/.local/share}/ahptui/bin"; echo "@@AHPTUI-BINDIR"; echo "$b"
echo "@@AHPTUI-INSTALLED"; ls "$b" 2>/dev/null
echo "@@AHPTUI-PATH"; if a=$(command -v ahptui 2>/dev/null); then echo "$a"; "$a" --version 2>/dev/null | head -n 1; fi
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

// probe is what discoverScript found on the remote machine.
type probe struct {
	// serve is the live `ahptui serve`'s state file (nil: none runs).
	serve *serveState
	// pi is a pi-ahp host (ok false: none).
	pi   remoteHost
	piOK bool
	// uname is `uname -sm` ("Linux x86_64").
	uname string
	// binDir holds the binaries `ahptui ssh` installed, one directory per
	// version (installed lists their names).
	binDir    string
	installed []string
	// pathBin is the ahptui in PATH ("" none) and pathVersion its version.
	pathBin, pathVersion string
}

// found returns the host to attach to: a live ahptui serve, else pi-ahp.
func (p probe) found() (remoteHost, bool) {
	if p.serve != nil {
		return remoteHost{kind: "ahptui serve", target: p.serve.Addr, token: p.serve.Token}, true
	}
	return p.pi, p.piOK
}

// discover runs discoverScript over ssh and returns what it found.
func discover(ctx context.Context, sshBin string, base []string, dest string) (probe, error) {
	var p probe
	out, err := runRemote(ctx, sshBin, base, dest, discoverScript, nil)
	if err != nil {
		return p, err
	}
	sections := splitSections(out)
	if _, ok := sections["END"]; !ok {
		return p, errors.New("the remote discovery did not finish (is the remote shell POSIX?)")
	}
	if s, ok := sections["SERVE"]; ok {
		var st serveState
		if err := json.Unmarshal([]byte(s), &st); err == nil && st.Addr != "" {
			p.serve = &st
		}
	}
	if s, ok := sections["PI"]; ok {
		p.pi, p.piOK = parsePi(s)
	}
	p.uname = strings.TrimSpace(sections["UNAME"])
	p.binDir = strings.TrimSpace(sections["BINDIR"])
	p.installed = strings.Fields(sections["INSTALLED"])
	if lines := strings.SplitN(strings.TrimSpace(sections["PATH"]), "\n", 2); lines[0] != "" {
		p.pathBin = lines[0]
		if len(lines) == 2 {
			p.pathVersion = versionOf(lines[1])
		}
	}
	return p, nil
}

// versionOf reads the version from `ahptui --version` ("ahptui v1.2.3 (…").
func versionOf(line string) string {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "ahptui" {
		return ""
	}
	return f[1]
}

// runRemote runs script with sh on dest (stdin from in, nil: none) and
// returns its standard output; a failure carries ssh's last words.
func runRemote(ctx context.Context, sshBin string, base []string, dest, script string, in io.Reader) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	args := append(append([]string(nil), base...), "-T", "--", dest, "exec sh -c "+shellQuote(script))
	cmd := exec.CommandContext(ctx, sshBin, args...)
	cmd.Stdin = in
	stderr := &syncBuf{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.Is(err, exec.ErrNotFound) || !errors.As(err, &ee) && strings.Contains(err.Error(), "executable file not found") {
			return "", fmt.Errorf("ssh is not installed (or not in PATH): %w", err)
		}
		return "", sshError("ssh "+dest+" failed", stderr.String())
	}
	return string(out), nil
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

// startRemoteServe starts `ahptui serve --detach` on the remote machine
// (remoteBin, serving agents: --agent values, none = the demo agent): a
// host that outlives the SSH connection, found again through its state
// file. It reads the URL, token included, from the output's first line.
func startRemoteServe(ctx context.Context, sshBin string, base []string, dest, remoteBin string, agents []string) (remoteHost, error) {
	cmdline := shellQuote(remoteBin) + " serve --detach --addr 127.0.0.1:0"
	for _, a := range agents {
		cmdline += " --agent " + shellQuote(a)
	}
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout+detachReadyTimeout)
	defer cancel()
	args := append(append([]string(nil), base...), "-T", "--", dest, "exec "+cmdline)
	cmd := exec.CommandContext(ctx, sshBin, args...)
	stderr := &syncBuf{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	first, _, _ := strings.Cut(string(out), "\n")
	first = strings.TrimSpace(first)
	u, perr := url.Parse(first)
	if err != nil || first == "" || perr != nil || u.Host == "" {
		return remoteHost{}, sshError("could not start ahptui serve on "+dest+" ("+remoteBin+")", stderr.String())
	}
	return remoteHost{kind: "--start", target: u.Host, token: u.Query().Get("tkn")}, nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
