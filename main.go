// Command ahptui is a terminal client for the Agent Host Protocol (AHP).
//
// Usage:
//
//	ahptui demo                 start the embedded demo host and attach to it
//	ahptui serve [flags]        run the embedded host without a UI
//	ahptui [flags] URL          attach to an AHP host (ws:// or wss://, ?tkn= accepted)
//
// Run `ahptui --help` for every flag and the exit codes.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
