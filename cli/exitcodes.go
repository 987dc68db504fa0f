package cli

// Exit codes. They are part of the CLI contract and listed in --help.
const (
	// exitOK means the program finished normally.
	exitOK = 0
	// exitError is a runtime failure after the UI started (or in serve).
	exitError = 1
	// exitUsage is a command-line mistake: unknown flag, bad URL, missing argument.
	exitUsage = 2
	// exitConnect means the host could not be reached or refused the
	// handshake, or the connection failed for good while the UI ran.
	exitConnect = 3
	// exitInterrupted means the user interrupted start-up (SIGINT); other
	// signals give 128+signo (see signalExitCode).
	exitInterrupted = 130
)
