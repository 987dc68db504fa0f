// Package cli is the ahptui command line: it owns argv, flags, help text,
// the log file (with its asynchronous writer and token masking), signal
// handling, exit codes and the version string, and wires the libraries
// (ahpclient, ahphost, tui) together. main.go only calls Main.
//
// Libraries never see argv: ahphost takes ahphost.Options (serve's flags
// are parsed here), ahpclient takes ahpclient.Options, tui takes
// tui.Options.
package cli
