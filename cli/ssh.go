package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"

	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// sshUsage is `ahptui ssh --help`.
const sshUsage = `usage: ahptui [flags] ssh [user@]host[:port] [--socket PATH | --port N | --start] [--remote-bin PATH]

Attaches to an AHP host on a machine reached with the system ssh (so
~/.ssh/config, ProxyJump, agents and keys all work), through a forwarded
local port (ssh -N -L 127.0.0.1:LOCAL:TARGET). In this order, it uses:
  1. an ahptui serve running there (its state file, ~/.local/state/ahptui/serve.json),
     or a pi-ahp host (~/.pi/ahp/settings.json);
  2. --socket PATH or --port N: a host listening on that Unix socket or TCP port;
  3. with --start: ahptui serve started there for the lifetime of the connection.
Tokens are read over the SSH channel, never put on a command line. When the
SSH connection drops, the tunnel is restarted with backoff and the client
reconnects. $AHPTUI_SSH names the ssh program (default: ssh).

Flags:
  --socket PATH      the remote host's Unix socket
  --port N           the remote host's TCP port on 127.0.0.1
  --start            start ahptui serve remotely when nothing is found
  --remote-bin PATH  the remote ahptui for --start (default: ahptui)
`

// sshOpts is the parsed `ahptui ssh` command line (or a config host).
type sshOpts struct {
	dest      string
	socket    string
	port      int
	start     bool
	remoteBin string
}

// errNothingFound means discovery found no AHP host and --start was not given.
var errNothingFound = errors.New("no AHP host found")

func parseSSH(args []string) (sshOpts, error) {
	o := sshOpts{remoteBin: "ahptui"}
	fs := flag.NewFlagSet("ahptui ssh", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.socket, "socket", "", "")
	fs.IntVar(&o.port, "port", 0, "")
	fs.BoolVar(&o.start, "start", false, "")
	fs.StringVar(&o.remoteBin, "remote-bin", "ahptui", "")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return o, err //nolint:wrapcheck // flag.ErrHelp is checked by the caller
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	if len(pos) != 1 {
		return o, usagef("ssh needs one destination: [user@]host[:port]")
	}
	o.dest = pos[0]
	if _, _, _, err := cfgfile.SplitSSH(o.dest); err != nil {
		return o, usagef("%v", err)
	}
	if o.port < 0 || o.port > 65535 || (o.socket != "" && o.port != 0) {
		return o, usagef("give --socket PATH or --port N (1-65535), not both")
	}
	return o, nil
}

// sshLink is an open SSH attachment: the tunnel, and the remote serve
// started by --start.
type sshLink struct {
	tun       *tunnel
	stopServe func()
	host      remoteHost
	url       string
	// serveEnded is closed when the host started by --start ends (its
	// ssh session closed): nil when nothing was started.
	serveEnded <-chan struct{}
}

// close stops the tunnel and the remote serve.
func (l *sshLink) close() {
	if l.tun != nil {
		l.tun.Close()
	}
	if l.stopServe != nil {
		l.stopServe()
	}
}

// sshProgram is $AHPTUI_SSH or ssh, resolved in PATH.
func sshProgram() (string, error) {
	p := lookupEnv("AHPTUI_SSH")
	if p == "" {
		p = "ssh"
	}
	path, err := exec.LookPath(p)
	if err != nil {
		return "", fmt.Errorf("ssh is not installed (or not in PATH): %s", p)
	}
	return path, nil
}

// sshBase returns ssh's options for dest and the destination argument.
func sshBase(dest string) ([]string, string) {
	user, host, port, _ := cfgfile.SplitSSH(dest)
	base := []string{"-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3"}
	if port != "" {
		base = append(base, "-p", port)
	}
	if user != "" {
		return base, user + "@" + host
	}
	return base, host
}

// openSSH finds the remote host and forwards a local port to it.
func openSSH(ctx context.Context, o sshOpts, log *slog.Logger) (*sshLink, error) {
	bin, err := sshProgram()
	if err != nil {
		return nil, err
	}
	base, dest := sshBase(o.dest)
	l := &sshLink{}
	switch {
	case o.socket != "":
		l.host = remoteHost{kind: "--socket", target: o.socket}
	case o.port != 0:
		l.host = remoteHost{kind: "--port", target: fmt.Sprintf("127.0.0.1:%d", o.port)}
	default:
		h, ok, err := discover(ctx, bin, base, dest)
		switch {
		case err != nil:
			return nil, err
		case ok:
			l.host = h
		case o.start:
			h, stop, ended, err := startRemoteServe(ctx, bin, base, dest, o.remoteBin)
			if err != nil {
				return nil, err
			}
			l.host, l.stopServe, l.serveEnded = h, stop, ended
		default:
			return nil, fmt.Errorf("%w on %s: no running ahptui serve and no pi-ahp settings there "+
				"(use --start to start ahptui serve, or --port N / --socket PATH)", errNothingFound, o.dest)
		}
	}
	log.Info("ssh: AHP host found", "dest", o.dest, "kind", l.host.kind, "target", l.host.target)
	tun, err := startTunnel(bin, base, dest, l.host.target, log.With("component", "ssh"))
	if err != nil {
		l.close()
		return nil, err
	}
	l.tun = tun
	l.url = "ws://" + tun.local + "/"
	return l, nil
}

// sshOptsFor turns a configured ssh host into sshOpts.
func sshOptsFor(h *cfgfile.Host) sshOpts {
	return sshOpts{dest: h.SSH, socket: h.Socket, port: h.Port, start: h.Start, remoteBin: firstNonEmpty(h.RemoteBin, "ahptui")}
}

// runSSH implements `ahptui ssh`.
func runSSH(cfg config, std stdio) int {
	o, err := parseSSH(cfg.subArgs)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(std.out, sshUsage)
		return exitOK
	}
	if err != nil {
		printErr(std.err, "ahptui: ssh: %v\n%s", err, strings.SplitN(sshUsage, "\n", 2)[0]+"\n")
		return exitUsage
	}
	_, ok := readConfig(&cfg, std, true)
	if !ok {
		return exitUsage
	}
	return attachSSH(cfg, std, o, "")
}

// runSSHHost attaches to a configured host that names an ssh destination.
func runSSHHost(cfg config, std stdio, t target) int {
	tok := ""
	if t.token != cfg.token || cfg.tokenFlag {
		tok = t.token
	}
	return attachSSH(cfg, std, sshOptsFor(t.ssh), tok)
}

// attachSSH opens the SSH link and runs the UI through it. token, when
// set, overrides the token found remotely.
func attachSSH(cfg config, std stdio, o sshOpts, token string) int {
	log, lc, dir, err := setupLog(cfg, cfg.token, token)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitError
	}
	defer lc.Close()
	ctx, caught, stop := watchSignals(context.Background())
	l, err := openSSH(ctx, o, log)
	stop()
	if err != nil {
		if sig := caught(); sig != nil {
			return signalExitCode(sig)
		}
		log.Error("ssh failed", "dest", o.dest, "err", err)
		printErr(std.err, "ahptui: ssh: %v\n", err)
		return exitConnect
	}
	defer l.close()
	cfg.url, cfg.token = l.url, pickToken(cfg, token, l.host.token)
	s := &session{log: lc.logger(cfg.token, l.host.token), hostLost: l.serveEnded, lostDest: o.dest}
	return attachAndRun(cfg, std, s, cfg.url, dir, "")
}

// pickToken is --token, else the configured token, else the one found remotely.
func pickToken(cfg config, configured, found string) string {
	switch {
	case cfg.tokenFlag:
		return cfg.token
	case configured != "":
		return configured
	case found != "":
		return found
	}
	return cfg.token
}
