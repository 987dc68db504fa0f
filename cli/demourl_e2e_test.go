//go:build !windows

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDemoURLInTheUI: in `ahptui demo` (a real terminal), /demo url shows
// the host's URL and the path of its token file — never the token — and
// the file is gone once the demo quits.
func TestDemoURLInTheUI(t *testing.T) {
	bin := sharedBinary(t)
	work := t.TempDir()
	p := startPane(t, nil, appCommand(bin, work))
	p.waitFor(`demo help`)
	p.tmux("send-keys", "-t", "e2e", "-l", "/demo url")
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`exports this session`)
	files, _ := filepath.Glob(filepath.Join(p.work, "state", "ahptui", "demo-*.token"))
	if len(files) != 1 {
		t.Fatalf("token files %v", files)
	}
	tok, err := os.ReadFile(files[0])
	must(t, err)
	screen := p.screen()
	if len(tok) < 16 || strings.Contains(screen, string(tok)) || strings.Contains(screen, "tkn=") {
		t.Fatalf("token (%d bytes) on screen:\n%s", len(tok), screen)
	}
	flat := strings.Join(strings.Fields(screen), "")
	if !strings.Contains(flat, "ws://127.0.0.1:") || !strings.Contains(flat, filepath.Base(files[0])) {
		t.Fatalf("URL or token file not on screen:\n%s", screen)
	}
	p.tmux("send-keys", "-t", "e2e", "C-c")
	p.waitFor(`EXIT=\d+`)
	deadline := time.Now().Add(testTimeout)
	for {
		if _, err := os.Stat(files[0]); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the token file outlived the demo")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
