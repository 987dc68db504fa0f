package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// The hostile scripts: what a broken or malicious agent does to its host.
//
//	fifo N          makes the FIFO "fifo" in its directory and reads it N
//	                times at once; says how many reads were answered
//	readflood N P   stops reading its stdin, reads P N times at once,
//	                waits for the file "unstall" in its directory, reads
//	                again and says "ok K refused M"
//	race P N        writes P N times as fast as it can (a test swaps a
//	                parent of P for a link meanwhile); says "raced"
//	daemon          starts a `sleep` in a session of its own holding the
//	                agent's stderr, says its pid and exits at once
//	stderrflood N   writes N MiB to stderr as fast as it can
//	terms N K       runs N terminals one after the other, each printing K
//	                KiB, and releases each; says "terms: ok X failed Y"
//	spawn           starts a `sleep` in a session of its own (outside the
//	                agent's process group) and says its pid

// stalled makes the agent stop reading its stdin while set.
var stalled atomic.Bool

// stallReader is the agent's stdin; it waits while stalled is set.
type stallReader struct{ r io.Reader }

func (s stallReader) Read(b []byte) (int, error) {
	for stalled.Load() {
		time.Sleep(5 * time.Millisecond)
	}
	return s.r.Read(b)
}

// hostile runs a hostile script; handled is false for other words.
func (r *run) hostile(word, arg string) (handled bool, stop sdk.StopReason, err error) {
	args := strings.Fields(arg)
	n := 0
	if len(args) > 0 {
		n, _ = strconv.Atoi(args[0])
	}
	switch word {
	case "fifo":
		p := r.path("fifo")
		if err := mkfifo(p); err != nil && !os.IsExist(err) {
			return true, "", err
		}
		ok, failed := r.concurrentReads(n, p)
		r.say(fmt.Sprintf("fifo: %d answered, %d failed", ok, failed))
	case "readflood":
		if len(args) < 2 {
			return true, "", fmt.Errorf("readflood N PATH")
		}
		stalled.Store(true)
		go func() {
			for {
				if _, err := os.Stat(r.path("unstall")); err == nil {
					stalled.Store(false)
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		ok, failed := r.concurrentReads(n, r.path(args[1]))
		r.say(fmt.Sprintf("ok %d refused %d", ok, failed))
	case "race":
		if len(args) < 2 {
			return true, "", fmt.Errorf("race PATH N")
		}
		k, _ := strconv.Atoi(args[1])
		for i := 0; i < k && r.ctx.Err() == nil; i++ {
			_, _ = r.f.conn.WriteTextFile(r.ctx, sdk.WriteTextFileRequest{SessionId: r.id, Path: r.path(args[0]), Content: "escaped\n"})
		}
		r.say("raced")
	case "daemon", "spawn":
		cmd := exec.Command("sleep", "1000")
		cmd.SysProcAttr = newSession()
		if word == "daemon" {
			cmd.Stderr = os.Stderr // holds the agent's stderr open
		}
		if err := cmd.Start(); err != nil {
			return true, "", err
		}
		r.say(fmt.Sprintf("child pid %d", cmd.Process.Pid))
		if word == "daemon" {
			time.Sleep(100 * time.Millisecond) // (the chunk reaches the host)
			os.Exit(0)
		}
	case "terms":
		k := 0
		if len(args) > 1 {
			k, _ = strconv.Atoi(args[1])
		}
		ok, failed := 0, 0
		for i := 0; i < n && r.ctx.Err() == nil; i++ {
			if r.printTerminal(fmt.Sprintf("tt-%d", i), k) {
				ok++
			} else {
				failed++
			}
		}
		r.say(fmt.Sprintf("terms: ok %d failed %d", ok, failed))
	case "stderrflood":
		line := []byte(strings.Repeat("e", 1023) + "\n")
		for i := 0; i < n<<10; i++ {
			if _, err := os.Stderr.Write(line); err != nil {
				break
			}
		}
		r.say("flooded stderr")
	default:
		return false, "", nil
	}
	return true, sdk.StopReasonEndTurn, nil
}

// concurrentReads reads p n times at once and counts the answers.
func (r *run) concurrentReads(n int, p string) (ok, failed int) {
	var wg sync.WaitGroup
	var oks, fails atomic.Int64
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.f.conn.ReadTextFile(r.ctx, sdk.ReadTextFileRequest{SessionId: r.id, Path: p}); err != nil {
				fails.Add(1)
			} else {
				oks.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(oks.Load()), int(fails.Load())
}

// printTerminal runs a terminal printing k KiB under the tool call id,
// waits for it and releases it.
func (r *run) printTerminal(id string, k int) bool {
	t, err := r.f.conn.CreateTerminal(r.ctx, sdk.CreateTerminalRequest{SessionId: r.id, Command: "sh",
		Args: []string{"-c", fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x; echo; echo end-of-%s", k<<10, id)}})
	if err != nil {
		return false
	}
	r.send(sdk.StartToolCall(sdk.ToolCallId(id), "Print", sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
		sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(t.TerminalId)})))
	_, err = r.f.conn.WaitForTerminalExit(r.ctx, sdk.WaitForTerminalExitRequest{SessionId: r.id, TerminalId: t.TerminalId})
	_, _ = r.f.conn.ReleaseTerminal(r.ctx, sdk.ReleaseTerminalRequest{SessionId: r.id, TerminalId: t.TerminalId})
	r.send(sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	return err == nil
}
