package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestE2ETmux runs scripts/e2e-tmux.sh: the whole app in a real terminal
// (tmux) against the embedded demo host. It is skipped only when tmux is not
// installed; CI installs it.
func TestE2ETmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := filepath.Join(t.TempDir(), "ahptui")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "scripts/e2e-tmux.sh")
	cmd.Env = append(os.Environ(), "AHPTUI_BIN="+bin, "E2E_TIMEOUT=40")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("e2e script failed: %v", err)
	}
}
