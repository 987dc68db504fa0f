//go:build linux

package cli

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ahptui/ahptui/internal/proctab"
)

// orphanReapEvery is how often the subreaper looks for orphans that ended
// when no SIGCHLD said so (signals of one kind coalesce).
const orphanReapEvery = 10 * time.Second

// orphanKillWait bounds how long serve waits at shutdown for the orphans it
// killed (and theirs, which reparent in turn) to be reaped.
const orphanKillWait = 3 * time.Second

// startSubreaper makes serve the child subreaper of everything it starts
// (PR_SET_CHILD_SUBREAPER): a process an agent started that left the
// agent's process group and session (`setsid cmd &`) reparents to serve
// when its parent dies instead of to init, where nothing would ever stop
// it (issue 32). While serve runs, orphans that ended are reaped; the
// returned function, run at shutdown after the agents are closed, kills
// what reparented and reaps it, waiting at most orphanKillWait.
func startSubreaper(log *slog.Logger) (shutdown func()) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		log.Warn("cannot become the subreaper of the agents' children; one that leaves its session may outlive the host", "err", err)
		return func() {}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGCHLD)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(orphanReapEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-sig:
			case <-t.C:
			}
			reapEndedOrphans()
		}
	}()
	return func() {
		signal.Stop(sig)
		close(quit)
		<-done
		if n := killOrphans(orphanKillWait); n > 0 {
			log.Info("killed processes the agents left behind", "count", n)
		}
	}
}

// children lists serve's child processes, its own and reparented orphans.
func children() []proctab.Proc { return proctab.Children(os.Getpid()) }

// reapEndedOrphans reaps the orphans that ended. An orphan is told from a
// process serve started itself (whose exec.Cmd reaps it) by its process
// group: everything serve starts either stays in serve's group or leads
// a group of its own (the agents, their sentinels, terminals), while an
// agent's orphan is in the agent's group. An orphan that leads a group of
// its own (after setsid) is left for the shutdown.
func reapEndedOrphans() {
	own := syscall.Getpgrp()
	for _, c := range children() {
		if c.Zombie && c.PGRP != c.PID && c.PGRP != own {
			_, _ = syscall.Wait4(c.PID, nil, syscall.WNOHANG, nil)
		}
	}
}

// killOrphans kills every child serve still has once its agents are closed
// (what reparented to it) and reaps them, repeating for the children those
// leave behind, for at most wait. It returns how many it killed.
func killOrphans(wait time.Duration) int {
	killed := map[int]bool{}
	deadline := time.Now().Add(wait)
	for {
		cs := children()
		if len(cs) == 0 || time.Now().After(deadline) {
			return len(killed)
		}
		for _, c := range cs {
			if !c.Zombie && !killed[c.PID] {
				killed[c.PID] = true
				_ = syscall.Kill(c.PID, syscall.SIGKILL)
			}
			_, _ = syscall.Wait4(c.PID, nil, syscall.WNOHANG, nil)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
