package acp

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// orphanEnv makes the test binary play a host that starts an agent with
// setGroup, prints the agent's pid and waits to be killed.
const orphanEnv = "ACP_TEST_ORPHAN_HOST"

func init() {
	prev := helperMain
	helperMain = func() bool {
		if os.Getenv(orphanEnv) == "" {
			return prev != nil && prev()
		}
		cmd := exec.Command("sleep", "300")
		setGroup(cmd)
		if err := cmd.Start(); err != nil {
			os.Exit(1)
		}
		os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
		time.Sleep(5 * time.Minute)
		return true
	}
}

// TestAgentDiesWithHost: a host killed with SIGKILL (no chance to kill its
// agent's group) does not leave the agent running.
func TestAgentDiesWithHost(t *testing.T) {
	host := exec.Command(os.Args[0], "-test.run=^$")
	host.Env = append(os.Environ(), orphanEnv+"=1")
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = host.Process.Kill()
		t.Fatalf("the host printed no agent pid: %v", err)
	}
	agent, err := strconv.Atoi(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-agent, syscall.SIGKILL) })
	_ = host.Process.Kill()
	_ = host.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(agent, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("agent %d still runs after its host was killed", agent)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
