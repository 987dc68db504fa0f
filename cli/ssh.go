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
const sshUsage = `usage: ahptui [flags] ssh [user@]host[:port] [--agent NAME[=COMMAND]]... [--stop | --no-start | --socket PATH | --port N] [--release ARCHIVE] [--remote-bin PATH]

Attaches to an AHP host on a machine reached with the system ssh (so
~/.ssh/config, ProxyJump, agents and keys all work), through a forwarded
local port (ssh -N -L 127.0.0.1:LOCAL:TARGET). In this order, it uses:
  1. an ahptui serve running there (its state file, ~/.local/state/ahptui/serve.json),
     or a pi-ahp host (~/.pi/ahp/settings.json);
  2. --socket PATH or --port N: a host listening on that Unix socket or TCP port;
  3. else it starts one: ahptui serve --detach, a host that keeps running when
     the link drops or this client quits (its log: ~/.local/state/ahptui/serve.log
     there), found again by the next ahptui ssh. When the machine has no
     ahptui, or an older one, this ahptui is copied there first (when it runs
     there, by uname -sm; else the one in --release ARCHIVE) into
     ~/.local/share/ahptui/bin/VERSION-SHA/ (checksum verified; an existing
     file is never replaced). An idle host of an older version is restarted
     on this one.
Tokens are read over the SSH channel, never put on a command line. When the
SSH connection drops, the tunnel is restarted with backoff and the client
reconnects. $AHPTUI_SSH names the ssh program (default: ssh).

Flags:
  --agent NAME[=COMMAND]  the ACP agent the started host serves (repeatable;
                          default: the demo agent); a running host that lacks
                          it is restarted with it when idle
  --stop                  stop the host ahptui ssh started there, and exit
  --no-start              only attach to a running host; never start one
  --release ARCHIVE       the release archive (ahptui_VERSION_OS_ARCH.tar.gz,
                          a path or an https URL, which must be listed in the
                          checksums.txt beside it) for a machine this ahptui
                          cannot run on
  --socket PATH           the remote host's Unix socket
  --port N                the remote host's TCP port on 127.0.0.1
  --remote-bin PATH       start this remote ahptui (no copying)
`

// sshOpts is the parsed `ahptui ssh` command line (or a config host).
type sshOpts struct {
	dest      string
	socket    string
	port      int
	start     bool
	stop      bool
	remoteBin string   // "" = the ahptui found or installed there
	release   string   // a release archive for another platform
	agents    []string // --agent values for a started host
}

// errNothingFound means discovery found no AHP host and starting one was
// not allowed.
var errNothingFound = errors.New("no AHP host found")

func parseSSH(args []string) (sshOpts, error) {
	o := sshOpts{start: true}
	var noStart, legacyStart bool
	fs := flag.NewFlagSet("ahptui ssh", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.socket, "socket", "", "")
	fs.IntVar(&o.port, "port", 0, "")
	fs.BoolVar(&legacyStart, "start", false, "") // starting is the default now
	fs.BoolVar(&noStart, "no-start", false, "")
	fs.BoolVar(&o.stop, "stop", false, "")
	fs.StringVar(&o.remoteBin, "remote-bin", "", "")
	fs.StringVar(&o.release, "release", "", "")
	fs.Func("agent", "", func(s string) error {
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "=") {
			return errors.New("--agent needs NAME or NAME=COMMAND")
		}
		o.agents = append(o.agents, s)
		return nil
	})
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
	if noStart && legacyStart {
		return o, usagef("--start and --no-start contradict each other")
	}
	if o.stop && (o.socket != "" || o.port != 0 || noStart || len(o.agents) > 0) {
		return o, usagef("--stop takes only the destination")
	}
	o.start = !noStart
	return o, nil
}

// sshLink is an open SSH attachment: the tunnel, and the remote serve
// started by --start.
type sshLink struct {
	tun  *tunnel
	host remoteHost
	url  string
	// notes tell the user what was done there (an install, an upgrade,
	// an agent added) or how to do what could not be.
	notes []string
}

// close stops the tunnel (a host started there keeps running).
func (l *sshLink) close() {
	if l.tun != nil {
		l.tun.Close()
	}
}

// note adds a message for the user ("" is none).
func (l *sshLink) note(msg string) {
	if msg != "" {
		l.notes = append(l.notes, msg)
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

// openSSH finds the remote host (starting one, and installing ahptui
// there, when none runs) and forwards a local port to it.
func openSSH(ctx context.Context, o sshOpts, log *slog.Logger) (*sshLink, error) {
	bin, err := sshProgram()
	if err != nil {
		return nil, err
	}
	base, dest := sshBase(o.dest)
	l := &sshLink{}
	var p probe
	switch {
	case o.socket != "":
		l.host = remoteHost{kind: "--socket", target: o.socket}
	case o.port != 0:
		l.host = remoteHost{kind: "--port", target: fmt.Sprintf("127.0.0.1:%d", o.port)}
	default:
		if p, err = discover(ctx, bin, base, dest); err != nil {
			return nil, err
		}
		h, ok := p.found()
		switch {
		case ok:
			l.host = h
		case !o.start:
			return nil, fmt.Errorf("%w on %s: no running ahptui serve and no pi-ahp settings there "+
				"(`ahptui ssh %s` starts one, or give --port N / --socket PATH)", errNothingFound, o.dest, o.dest)
		default:
			rbin, note, err := remoteBinFor(ctx, bin, base, dest, o, p)
			if err != nil {
				return nil, err
			}
			l.note(note)
			if l.host, err = startRemoteServe(ctx, bin, base, dest, rbin, o.agents); err != nil {
				// Another client may have started one meanwhile (the state
				// directory takes one host): attach to it.
				if p2, derr := discover(ctx, bin, base, dest); derr == nil && p2.serve != nil {
					l.host, _ = p2.found()
				} else {
					return nil, err
				}
			}
			log.Info("ssh: started a detached host", "dest", o.dest, "bin", rbin)
		}
	}
	log.Info("ssh: AHP host found", "dest", o.dest, "kind", l.host.kind, "target", l.host.target)
	if err := l.forward(bin, base, dest, log); err != nil {
		return nil, err
	}
	if p.serve != nil && o.start {
		l.refresh(ctx, sshCall{bin: bin, base: base, dest: dest, log: log}, o, *p.serve, p)
	}
	for _, n := range l.notes {
		log.Info("ssh: "+n, "dest", o.dest)
	}
	return l, nil
}

// forward (re)opens the tunnel to l.host.
func (l *sshLink) forward(bin string, base []string, dest string, log *slog.Logger) error {
	if l.tun != nil {
		l.tun.Close()
		l.tun = nil
	}
	tun, err := startTunnel(bin, base, dest, l.host.target, log.With("component", "ssh"))
	if err != nil {
		return err
	}
	l.tun = tun
	l.url = "ws://" + tun.local + "/"
	return nil
}

// sshOptsFor turns a configured ssh host into sshOpts.
func sshOptsFor(h *cfgfile.Host) sshOpts {
	return sshOpts{dest: h.SSH, socket: h.Socket, port: h.Port, start: h.Start == nil || *h.Start, remoteBin: h.RemoteBin,
		release: h.Release, agents: h.Agents}
}

// attachOnly is t with starting a host turned off: the inbox lists the
// hosts that run; it never starts (or installs) one on every machine.
func attachOnly(t target) target {
	if t.ssh != nil {
		h, no := *t.ssh, false
		h.Start = &no
		t.ssh = &h
	}
	return t
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
	if o.stop {
		return stopSSH(std, o)
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
	for _, n := range l.notes {
		printErr(std.err, "ahptui: ssh: %s\n", n)
	}
	cfg.url, cfg.token = l.url, pickToken(cfg, token, l.host.token)
	s := &session{log: lc.logger(cfg.token, l.host.token)}
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
