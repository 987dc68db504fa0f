package demo

import (
	"fmt"
	"strings"
)

// shellStep is one scripted command of /demo shell: its command line, the
// output chunks it prints (each one terminal/data action) and its exit
// code.
type shellStep struct {
	line   string
	chunks []string
	exit   int64
}

// SGR sequences the scripted output uses (only when the terminal is a pty).
const (
	sgrReset  = "\x1b[0m"
	sgrBold   = "\x1b[1m"
	sgrRed    = "\x1b[31m"
	sgrGreen  = "\x1b[32m"
	sgrYellow = "\x1b[33m"
	sgrCyan   = "\x1b[36m"
)

// ShellLines is how many numbered lines the "seq" step of /demo shell
// prints (a few thousand, to exercise scrolling and collapsing).
const ShellLines = 3000

// shellSteps returns the scripted session: a build with a `\r` progress bar,
// a long listing, and a test run that fails with exit code 1. Without pty
// the output carries no escape sequences and the progress bar prints one
// line per step instead of redrawing.
func shellSteps(pty bool) []shellStep {
	col := func(sgr, s string) string {
		if !pty {
			return s
		}
		return sgr + s + sgrReset
	}
	var build []string
	const steps = 40
	for i := 0; i <= steps; i++ {
		bar := strings.Repeat("#", i) + strings.Repeat(".", steps-i)
		if pty {
			build = append(build, fmt.Sprintf("\r%s [%s] %3d%%", col(sgrCyan, "building"), bar, i*100/steps))
		} else if i%10 == 0 {
			build = append(build, fmt.Sprintf("building [%s] %3d%%\r\n", bar, i*100/steps))
		}
	}
	if pty {
		build = append(build, "\r\n")
	}
	build = append(build, col(sgrGreen, "build ok")+" (3 packages)\r\n")

	var seq []string
	var b strings.Builder
	for i := 1; i <= ShellLines; i++ {
		fmt.Fprintf(&b, "%d\r\n", i)
		if i%100 == 0 {
			seq = append(seq, b.String())
			b.Reset()
		}
	}

	test := []string{
		col(sgrBold, "=== RUN   TestParse") + "\r\n",
		col(sgrGreen, "--- PASS") + ": TestParse (0.01s)\r\n",
		col(sgrBold, "=== RUN   TestRender") + "\r\n",
		col(sgrYellow, "    render_test.go:42: width 80: wrapped 3 lines") + "\r\n",
		col(sgrGreen, "--- PASS") + ": TestRender (0.02s)\r\n",
		col(sgrBold, "=== RUN   TestDiff") + "\r\n",
		col(sgrRed, "    diff_test.go:17: got 3 hunks, want 2") + "\r\n",
		col(sgrRed, "--- FAIL") + ": TestDiff (0.00s)\r\n",
		col(sgrRed, "FAIL") + "\r\n",
		col(sgrRed, "FAIL") + "\texample.com/demo/diff\t0.031s\r\n",
		col(sgrGreen, "ok  ") + "\texample.com/demo/render\t0.044s\r\n",
	}
	return []shellStep{
		{line: "./build.sh", chunks: build},
		{line: fmt.Sprintf("seq %d", ShellLines), chunks: seq},
		{line: "go test ./...", chunks: test, exit: 1},
	}
}

// prompt is the shell prompt printed before each command.
func prompt(pty bool) string {
	if pty {
		return sgrBold + sgrGreen + "demo@ahptui" + sgrReset + ":" + sgrBold + "~/project" + sgrReset + "$ "
	}
	return "$ "
}
