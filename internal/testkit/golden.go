package testkit

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the one -update flag of every test binary that uses golden
// files: `go test ./pkg -update` rewrites them.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// GoldenPath is the file a golden named name lives in:
// testdata/golden/<name>.golden, relative to the test's package.
func GoldenPath(name string) string {
	return filepath.Join("testdata", "golden", filepath.FromSlash(name)+".golden")
}

// Golden compares got with the golden file named name (see GoldenPath);
// with -update it rewrites the file instead.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := GoldenPath(name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test with -update to create it): %v", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test with -update to accept):\n%s\n--- got ---\n%s", path, FirstDiff(got, string(want)), got)
	}
}

// TestName is t.Name() as one path element of a golden name: the slashes
// of subtests become underscores ("TestX/80x24" gives "TestX_80x24").
func TestName(t testing.TB) string { return strings.ReplaceAll(t.Name(), "/", "_") }

// FirstDiff describes the first line where got and want differ.
func FirstDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}
