//go:build linux

package proctab

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// A comm holding ") " and spaces is read from its last parenthesis.
func TestParseStat(t *testing.T) {
	p, ok := parseStat(42, []byte("42 (evil) Z 7 (x) S 1 9 9 0 -1"))
	if !ok || p.PPID != 1 || p.PGRP != 9 || p.Zombie {
		t.Fatalf("%+v %v", p, ok)
	}
	p, ok = parseStat(5, []byte("5 (sh) Z 3 5 5 0"))
	if !ok || !p.Zombie || p.PPID != 3 {
		t.Fatalf("%+v %v", p, ok)
	}
	if _, ok := parseStat(1, []byte("1 (broken")); ok {
		t.Fatal("a stat without ')' parsed")
	}
}

// A child and its grandchild are this process's descendants, parents
// first; the child is among its children.
func TestDescendantsOfThisProcess(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var d []int
	for deadline := time.Now().Add(10 * time.Second); len(d) < 2 && time.Now().Before(deadline); {
		if d = Descendants(os.Getpid()); len(d) < 2 {
			time.Sleep(10 * time.Millisecond) // polling for the shell to start its sleep
		}
	}
	if len(d) < 2 || d[0] != cmd.Process.Pid {
		t.Fatalf("descendants %v, want the shell %d then its sleep", d, cmd.Process.Pid)
	}
	if !slices.ContainsFunc(Children(os.Getpid()), func(p Proc) bool { return p.PID == cmd.Process.Pid }) {
		t.Fatal("the shell is not among this process's children")
	}
}
