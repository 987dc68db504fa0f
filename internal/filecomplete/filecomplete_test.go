package filecomplete

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The walk respects the root's and nested .gitignore files (negation,
// directory-only and anchored patterns, **), .git/info/exclude, and skips
// hidden directories and node_modules.
func TestWalkRespectsGitignore(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".gitignore":          "*.log\n!keep.log\nbuild/\n/top.txt\ndocs/**/draft.md\n# comment\n",
		".git/info/exclude":   "secret.env\n",
		"main.go":             "",
		"debug.log":           "",
		"keep.log":            "",
		"top.txt":             "",
		"sub/top.txt":         "",
		"build/out.bin":       "",
		"sub/build":           "", // a file named build: not a directory
		"docs/a/b/draft.md":   "",
		"docs/a/final.md":     "",
		"secret.env":          "",
		"node_modules/x/y.js": "",
		".hidden/z.txt":       "",
		"pkg/.gitignore":      "gen_*.go\n",
		"pkg/gen_a.go":        "",
		"pkg/real.go":         "",
		"other/gen_b.go":      "",
	})
	got := strings.Join(walk(dir), ",")
	want := ".gitignore,docs/a/final.md,keep.log,main.go,other/gen_b.go,pkg/.gitignore,pkg/real.go,sub/build,sub/top.txt"
	if got != want {
		t.Fatalf("walk:\n got %s\nwant %s", got, want)
	}
}

// Match ranks base-name prefixes, then substrings, then subsequences,
// shorter paths first, and stops at the limit.
func TestMatch(t *testing.T) {
	files := []string{"internal/agents/catalog.go", "cat.go", "docs/concat.md", "cmd/a/t.go", "README.md"}
	if got := strings.Join(Match(files, "cat", 10), ","); got != "cat.go,internal/agents/catalog.go,docs/concat.md,cmd/a/t.go" {
		t.Fatalf("cat: %s", got)
	}
	if got := strings.Join(Match(files, "CAT", 2), ","); got != "cat.go,internal/agents/catalog.go" {
		t.Fatalf("limit: %s", got)
	}
	if got := Match(files, "zzz", 10); len(got) != 0 {
		t.Fatalf("no match: %v", got)
	}
}

// The walk stops at MaxFiles.
func TestWalkBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20k files")
	}
	dir := t.TempDir()
	for i := 0; i < MaxFiles+50; i++ {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(walk(dir)); n != MaxFiles {
		t.Fatalf("%d files, want %d", n, MaxFiles)
	}
}
