// Command ahptui is a terminal client for the Agent Host Protocol (AHP).
//
// Usage:
//
//	ahptui demo                 start the embedded demo host and attach to it
//	ahptui serve [flags]        run the embedded host without a UI
//	ahptui [flags] URL          attach to an AHP host (ws:// or wss://, ?tkn= accepted)
//
// Run `ahptui --help` for every command, flag and exit code. Everything
// lives in cli; this file only hands it the process.
package main

import (
	"os"

	"github.com/ahptui/ahptui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
