//go:build linux

// Package proctab reads the system's process table from /proc (Linux):
// each process's parent, process group and whether it is a zombie. The
// host's subreaper (cli) and the agent shim (ahphost/acp) find the
// processes they must reap or stop with it.
package proctab

import (
	"bytes"
	"os"
	"strconv"
)

// Proc is one process as /proc/PID/stat tells it.
type Proc struct {
	PID, PPID, PGRP int
	Zombie          bool
}

// List returns the processes of /proc (those that end while it reads are
// left out).
func List() []Proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]Proc, 0, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		if p, ok := parseStat(pid, b); ok {
			out = append(out, p)
		}
	}
	return out
}

// parseStat reads "pid (comm) state ppid pgrp ..."; comm may hold ") ".
func parseStat(pid int, b []byte) (Proc, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 {
		return Proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Proc{}, false
	}
	return Proc{PID: pid, PPID: ppid, PGRP: pgrp, Zombie: string(f[0]) == "Z"}, true
}

// Children returns the processes whose parent is pid.
func Children(pid int) []Proc {
	var out []Proc
	for _, p := range List() {
		if p.PPID == pid {
			out = append(out, p)
		}
	}
	return out
}

// Descendants returns the live (not zombie) processes below pid, parents
// before their children.
func Descendants(pid int) []int {
	kids := map[int][]Proc{}
	for _, p := range List() {
		kids[p.PPID] = append(kids[p.PPID], p)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			if !k.Zombie {
				out = append(out, k.PID)
			}
			queue = append(queue, k.PID)
		}
	}
	return out
}
