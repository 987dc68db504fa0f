package cli

import (
	"context"
	"fmt"
)

// serveDemoURL is `ahptui demo --print-url`: it prints the demo host's
// URL (with its token: the host listens on 127.0.0.1 and ends with this
// command) on stdout and serves it without a UI until interrupted, so
// that `exec`, `sessions` and `export` can be tried against the demo from
// another terminal.
func serveDemoURL(std stdio, u string) int {
	ctx, _, stop := watchSignals(context.Background()) // before printing: a script may signal at once
	defer stop()
	fmt.Fprintln(std.out, u)
	printErr(std.err, "ahptui: the demo host runs until ctrl+c; with URL the line above, try:\n"+
		"  ahptui exec URL \"/demo tools\" --approve always\n  ahptui sessions URL\n  ahptui export URL SESSION\n")
	<-ctx.Done()
	return exitOK
}
