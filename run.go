package main

import "fmt"

// run is the whole program minus os.Exit; it returns the exit code.
func run(args []string, io stdio) int {
	cfg, err := parseArgs(args, lookupEnv)
	if err != nil {
		fmt.Fprintf(io.err, "ahptui: %v\nRun 'ahptui --help' for usage.\n", err)
		return exitUsage
	}
	switch cfg.cmd {
	case cmdHelp:
		fmt.Fprint(io.out, usageText)
		return exitOK
	case cmdVersion:
		fmt.Fprintln(io.out, versionString())
		return exitOK
	case cmdServe:
		return runServe(cfg, io)
	case cmdDemo:
		return runDemo(cfg, io)
	default:
		return runAttach(cfg, io)
	}
}

