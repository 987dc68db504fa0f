//go:build !windows

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUIEndsWhenSupervisorIsKilled: SIGKILL of the supervisor (which then
// cannot restore anything) ends the UI child too, and the child leaves the
// alternate screen and mouse mode (issue 24 item 11).
func TestUIEndsWhenSupervisorIsKilled(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	bin := sharedBinary(t)
	p := startPane(t, nil, appCommand(bin, t.TempDir()))
	p.waitFor(`Connected`)
	sup := p.appPID()
	// Any of the Go process's threads may have forked the child.
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", sup))
	if err != nil || len(tasks) == 0 {
		t.Skipf("cannot list the supervisor's children: %v", err)
	}
	var f []string
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		f = append(f, strings.Fields(string(b))...)
	}
	if len(f) == 0 {
		t.Fatalf("the supervisor has no child; screen:\n%s", p.screen())
	}
	child, err := strconv.Atoi(f[0])
	must(t, err)
	if alt := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "1" {
		t.Fatalf("the UI is not in the alternate screen (%q)", alt)
	}
	must(t, syscall.Kill(sup, syscall.SIGKILL))
	deadline := time.Now().Add(30 * time.Second)
	for !processGone(child) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the UI outlived its supervisor; screen:\n%s", p.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The UI's last writes (leaving the alternate screen, mouse off) reach
	// tmux after the process ended: tmux reads the pane's pty on its own
	// time, so the flags are polled (asserting at once failed under load).
	restored := func() (string, bool) {
		var bad []string
		for _, flag := range []string{"alternate_on", "mouse_any_flag"} {
			if v := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{"+flag+"}")); v != "0" {
				bad = append(bad, flag+"="+v)
			}
		}
		return strings.Join(bad, ", "), len(bad) == 0
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		bad, ok := restored()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s after the UI ended; screen:\n%s", bad, p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processGone reports whether pid no longer runs (absent or a zombie).
func processGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(st), ')')
	return i < 0 || strings.HasPrefix(strings.TrimSpace(string(st[i+1:])), "Z")
}
