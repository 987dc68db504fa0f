//go:build !windows

package cli

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// osc52 matches a clipboard write (OSC 52) and captures its base64 text.
var osc52 = regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)`)

// clipboardWrites decodes every OSC 52 clipboard write in raw output.
func clipboardWrites(t *testing.T, raw []byte) []string {
	t.Helper()
	var out []string
	for _, m := range osc52.FindAllSubmatch(raw, -1) {
		b, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("OSC 52 payload %q is not base64: %v", m[1], err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestCopyCodeInTheTerminal: in `ahptui demo` (a real terminal, its
// output piped raw to a file), /demo code answers with three code blocks;
// /copy lists them, ↓ and enter copy the Makefile, and Y in the
// transcript copies the code block under the cursor: the OSC 52 payloads
// are the blocks byte for byte, their tabs kept (the screen shows spaces).
func TestCopyCodeInTheTerminal(t *testing.T) {
	bin := sharedBinary(t)
	p := startPane(t, nil, appCommand(bin, t.TempDir()))
	raw := filepath.Join(t.TempDir(), "pane.raw")
	p.tmux("pipe-pane", "-o", "-t", "e2e", "cat >> "+raw)
	p.waitFor(`demo help`)
	p.tmux("send-keys", "-t", "e2e", "-l", "/demo code")
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`keeps its tabs byte for byte`)
	p.tmux("send-keys", "-t", "e2e", "-l", "/copy")
	for i := 0; i < 3 && !strings.Contains(p.screen(), "Copy from the last reply"); i++ {
		p.tmux("send-keys", "-t", "e2e", "Enter") // (the first may take the completion)
		time.Sleep(200 * time.Millisecond)
	}
	p.waitFor(`(?s)Copy from the last reply.*1  go · func sum\(xs \[\]int\) int \{ · 7 lines.*2  make · test: · 5 lines.*3  sh · make test lint · 1 line.*the whole reply`)
	p.tmux("send-keys", "-t", "e2e", "Down")
	p.tmux("send-keys", "-t", "e2e", "Enter")
	p.waitFor(`copied code block 2 of 3`)

	p.tmux("send-keys", "-t", "e2e", "Tab") // the transcript
	p.tmux("send-keys", "-t", "e2e", "[")
	for i := 0; i < 4 && !strings.Contains(p.screen(), "copied code block 1 of 3"); i++ {
		p.tmux("send-keys", "-t", "e2e", "Y") // (the demo's footer may be the block first focused)
		time.Sleep(200 * time.Millisecond)
		if strings.Contains(p.screen(), "has no code block") {
			p.tmux("send-keys", "-t", "e2e", "[")
		}
	}
	p.waitFor(`copied code block 1 of 3`)

	const makefile = "test:\n\tgo test ./...\n\nlint:\n\tgofmt -l ."
	const goCode = "func sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}"
	deadline := time.Now().Add(testTimeout)
	for {
		b, _ := os.ReadFile(raw)
		got := clipboardWrites(t, b)
		if len(got) >= 2 {
			if got[0] != makefile || got[len(got)-1] != goCode {
				t.Fatalf("clipboard writes %q, want the Makefile then the Go function, tabs kept", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not receive two OSC 52 writes (%d):\n%s", len(got), p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
