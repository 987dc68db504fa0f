package cli

import (
	"fmt"
	"os"

	"github.com/ahptui/ahptui/ahphost/acp"
)

// shimExecutable is this program for re-executing it as the agents' shim:
// /proc/self/exe where there is one (this very binary, even once the
// file was replaced or removed, as an upgrade by `ahptui ssh` does),
// else its path.
func shimExecutable() string {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	return executablePath()
}

// agentShim is the program that starts agents under the shim: this one,
// when it runs as the ahptui command (Main); "" in tests that run the CLI
// in their own process, whose agents are started directly.
var agentShim string

// Main runs the ahptui command line with the process's standard streams
// and returns the exit code for os.Exit.
func Main(args []string) int {
	// Re-executed as an agent's shim (ahphost/acp/shim.go): nothing else.
	if code, ok := acp.RunShim(os.Args); ok {
		return code
	}
	agentShim = shimExecutable() // this program starts the agents under the shim
	std := stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}
	armCrashPipe()
	if cfg, err := parseArgs(args, lookupEnv); err == nil && (cfg.cmd == cmdDemo && !cfg.printURL || cfg.cmd == cmdAttach || cfg.cmd == cmdSSH) {
		if code, ok := maybeSupervise(args, logPathFor(cfg), std); ok {
			return code
		}
	}
	return run(args, std)
}

// run is the whole program minus os.Exit; it returns the exit code.
func run(args []string, std stdio) int {
	cfg, err := parseArgs(args, lookupEnv)
	if err != nil {
		fmt.Fprintf(std.err, "ahptui: %v\nRun 'ahptui --help' for usage.\n", err)
		return exitUsage
	}
	switch cfg.cmd {
	case cmdHelp:
		fmt.Fprint(std.out, usageText)
		return exitOK
	case cmdVersion:
		fmt.Fprintln(std.out, versionString())
		return exitOK
	case cmdServe:
		return runServe(cfg, std)
	case cmdDemo:
		return runDemo(cfg, std)
	case cmdConfig:
		return runConfig(cfg, std)
	case cmdExec:
		return runExec(cfg, std)
	case cmdSessions:
		return runSessions(cfg, std)
	case cmdExport:
		return runExport(cfg, std)
	case cmdSSH:
		return runSSH(cfg, std)
	case cmdAgents:
		return runAgents(cfg, std)
	default:
		return runAttach(cfg, std)
	}
}
