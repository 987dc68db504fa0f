package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// sharedBin is the ahptui binary built once for the tests that run it and
// do not change it (the parallel SSH, tmux and pty tests: a link of the
// same binary each, at once, cost more than the tests themselves on a
// small machine).
var sharedBin struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// sharedBinary returns the path of the ahptui binary built once per test
// process (removed by TestMain). Callers must not move or change it.
func sharedBinary(t testing.TB) string {
	t.Helper()
	buildSharedBinary()
	if sharedBin.err != nil {
		t.Fatalf("go build: %v\n%s", sharedBin.err, sharedBin.out)
	}
	return sharedBin.path
}

// buildSharedBinary builds the shared binary once.
func buildSharedBinary() {
	sharedBin.once.Do(func() {
		sharedBin.dir, sharedBin.err = os.MkdirTemp("", "ahptui-cli-test")
		if sharedBin.err != nil {
			return
		}
		sharedBin.path = filepath.Join(sharedBin.dir, "ahptui")
		sharedBin.out, sharedBin.err = exec.Command("go", "build", "-o", sharedBin.path, "github.com/ahptui/ahptui").CombinedOutput()
	})
}

// removeSharedBinary deletes the binaries sharedBinary and sharedFakeACP
// built, if any.
func removeSharedBinary() {
	if sharedBin.dir != "" {
		_ = os.RemoveAll(sharedBin.dir)
	}
	if sharedFake.dir != "" {
		_ = os.RemoveAll(sharedFake.dir)
	}
}

// sharedFake is the scripted ACP agent (internal/fakeacp) built once for
// the tests that run it as an agent: each built its own before, the same
// link four times.
var sharedFake struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// sharedFakeACP returns the path of the fake agent built once per test
// process (removed by TestMain). Callers must not move or change it.
func sharedFakeACP(t testing.TB) string {
	t.Helper()
	sharedFake.once.Do(func() {
		sharedFake.dir, sharedFake.err = os.MkdirTemp("", "ahptui-cli-fakeacp")
		if sharedFake.err != nil {
			return
		}
		sharedFake.path = filepath.Join(sharedFake.dir, "fakeacp")
		sharedFake.out, sharedFake.err = exec.Command("go", "build", "-o", sharedFake.path,
			"github.com/ahptui/ahptui/internal/fakeacp/cmd/fakeacp").CombinedOutput()
	})
	if sharedFake.err != nil {
		t.Fatalf("building the fake agent: %v\n%s", sharedFake.err, sharedFake.out)
	}
	return sharedFake.path
}
