//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows

package ahpclient

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// holdSlotEnv names the state directory the helper process claims a slot in.
const holdSlotEnv = "AHPCLIENT_TEST_HOLD_SLOT_DIR"

// TestMain runs the slot-holding helper when started as one (see
// TestClientIDSlotAcrossProcesses), else the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv(holdSlotEnv); dir != "" {
		holdSlot(dir)
	}
	os.Exit(m.Run())
}

// holdSlot claims a slot, prints its id and holds the slot until stdin
// closes, then exits without releasing it (the OS must drop the lock).
func holdSlot(dir string) {
	s, err := claimClientID(dir, "h_80")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("id", s.id)
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// A clientId held by another live process is not reused; once that process
// exits (even without releasing) its slot and id are free again.
func TestClientIDSlotAcrossProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), holdSlotEnv+"="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	defer func() {
		if !exited {
			_ = in.Close()
			_ = cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	childID, ok := strings.CutPrefix(strings.TrimSpace(line), "id ")
	if err != nil || !ok {
		t.Fatalf("helper said %q, %v", line, err)
	}
	mine, err := claimClientID(dir, "h_80")
	if err != nil {
		t.Fatal(err)
	}
	if mine.id == childID {
		t.Fatalf("this process got the id %q held by another live process", childID)
	}
	_ = mine.release()
	_ = in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		exited = true
		if err != nil {
			t.Fatalf("helper: %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("helper did not exit")
	}
	again, err := claimClientID(dir, "h_80")
	if err != nil {
		t.Fatal(err)
	}
	defer again.release()
	if again.id != childID {
		t.Fatalf("after the holder exited got %q, want its id %q", again.id, childID)
	}
}
