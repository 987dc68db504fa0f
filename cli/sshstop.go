package cli

import (
	"context"
	"fmt"
	"strings"
)

// stopScript stops the `ahptui serve` whose state file names PID (as $1;
// "" = the one the state file names now): SIGTERM, then up to 15 s for it
// to go. A process that is not an ahptui serve (a reused pid) is left
// alone. It answers with one @@AHPTUI- line.
const stopScript = `f="${XDG_STATE_HOME:-$HOME/.local/state}/ahptui/serve.json"; want=$1
pid=$(sed -n "s/.*\"pid\":\([0-9]*\).*/\1/p" "$f" 2>/dev/null)
[ -n "$want" ] && pid=$want
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then echo "@@AHPTUI-NONE"; exit 0; fi
args=$(ps -p "$pid" -o args= 2>/dev/null || tr "\0" " " <"/proc/$pid/cmdline" 2>/dev/null)
case "$args" in *ahptui*" serve"*) ;; *) echo "@@AHPTUI-NOTOURS $pid"; exit 0;; esac
kill -TERM "$pid"; i=0
while kill -0 "$pid" 2>/dev/null; do i=$((i+1)); [ $i -gt 150 ] && { echo "@@AHPTUI-STILL $pid"; exit 0; }; sleep 0.1 2>/dev/null || sleep 1; done
echo "@@AHPTUI-STOPPED $pid"`

// stopRemote stops the remote host (pid 0: the one the state file names)
// and reports whether one ran.
func stopRemote(ctx context.Context, c sshCall, pid int) (bool, error) {
	want := ""
	if pid > 0 {
		want = fmt.Sprint(pid)
	}
	out, err := runRemote(ctx, c.bin, c.base, c.dest, "set -- "+shellQuote(want)+"\n"+stopScript, nil)
	if err != nil {
		return false, err
	}
	out = strings.TrimSpace(out)
	switch {
	case out == "@@AHPTUI-NONE":
		return false, nil
	case strings.HasPrefix(out, "@@AHPTUI-STOPPED"):
		return true, nil
	case strings.HasPrefix(out, "@@AHPTUI-NOTOURS"):
		return false, fmt.Errorf("the state file names process %s, which is not an ahptui serve: left alone", strings.TrimPrefix(out, "@@AHPTUI-NOTOURS "))
	case strings.HasPrefix(out, "@@AHPTUI-STILL"):
		return false, fmt.Errorf("the host (pid %s) did not stop within 15 s of SIGTERM", strings.TrimPrefix(out, "@@AHPTUI-STILL "))
	}
	return false, fmt.Errorf("unexpected answer %q", sanitizeLine(out))
}

// stopSSH implements `ahptui ssh HOST --stop`.
func stopSSH(std stdio, o sshOpts) int {
	bin, err := sshProgram()
	if err != nil {
		printErr(std.err, "ahptui: ssh: %v\n", err)
		return exitConnect
	}
	base, dest := sshBase(o.dest)
	ctx, caught, stop := watchSignals(context.Background())
	defer stop()
	ran, err := stopRemote(ctx, sshCall{bin: bin, base: base, dest: dest}, 0)
	switch {
	case caught() != nil:
		return signalExitCode(caught())
	case err != nil:
		printErr(std.err, "ahptui: ssh: stop the host on %s: %v\n", o.dest, err)
		return exitError
	case !ran:
		fmt.Fprintf(std.out, "no ahptui host is running on %s\n", o.dest)
	default:
		fmt.Fprintf(std.out, "stopped the ahptui host on %s\n", o.dest)
	}
	return exitOK
}
