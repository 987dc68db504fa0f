package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogTailShowsThisStart: a detached start that fails prints the end
// of the log it wrote, not the lines of an earlier start that is still
// running ("ahptui host ready" above the refusal said the opposite); every
// detached host appends to the one serve.log.
func TestLogTailShowsThisStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), serveLogName)
	log := "--- 2026-12-06T16:17:15Z: ahptui dev starting detached\n" +
		"time=… level=INFO msg=listening addr=127.0.0.1:47881\n" +
		"time=… level=INFO msg=\"ahptui host ready\"\n" +
		"--- 2026-12-06T16:17:20Z: ahptui dev starting detached\n" +
		"ahptui: serve: the state database … is in use by another ahptui host (pid 2153, 127.0.0.1:47881)\n"
	must(t, os.WriteFile(path, []byte(log), 0o600))
	got := logTail(path, 5)
	if strings.Contains(got, "host ready") || !strings.Contains(got, "is in use by another ahptui host") {
		t.Fatalf("the tail of a failed start:\n%s", got)
	}
	// A log without a marker (written otherwise) is shown as it ends.
	must(t, os.WriteFile(path, []byte("a\nb\nc\n"), 0o600))
	if got := logTail(path, 2); got != "b\nc\n" {
		t.Fatalf("tail %q", got)
	}
}
