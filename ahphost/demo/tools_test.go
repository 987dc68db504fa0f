package demo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTree builds a small working directory plus an outside directory that
// symbolic links inside the tree point to.
func newTree(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "work")
	outside = filepath.Join(base, "secret")
	for _, d := range []string{dir, outside, filepath.Join(dir, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "README.md"), "# hello\n")
	write(filepath.Join(dir, "sub", "a.go"), "package sub\n")
	write(filepath.Join(dir, "bin.dat"), "ab\x00cd")
	write(filepath.Join(outside, "token.txt"), "TOP SECRET\n")
	if err := os.Symlink(filepath.Join(outside, "token.txt"), filepath.Join(dir, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "leakdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret/token.txt", filepath.Join(dir, "rel-leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("README.md", filepath.Join(dir, "ok-link.md")); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func TestCheckPath(t *testing.T) {
	tests := map[string]struct {
		in, want string
		refused  bool
	}{
		"empty":          {in: "", want: "."},
		"dot":            {in: ".", want: "."},
		"plain":          {in: "sub/a.go", want: "sub/a.go"},
		"redundant":      {in: "./sub//a.go", want: "sub/a.go"},
		"backslash":      {in: `sub\a.go`, want: "sub/a.go"},
		"dotdot":         {in: "..", refused: true},
		"dotdot inside":  {in: "sub/../README.md", refused: true},
		"dotdot escape":  {in: "sub/../../secret", refused: true},
		"backslash up":   {in: `..\secret`, refused: true},
		"absolute":       {in: "/etc/passwd", refused: true},
		"drive":          {in: `C:\Windows`, refused: true},
		"unc":            {in: `\\server\share`, refused: true},
		"dot drive":      {in: "./c:x", refused: true},
		"digit colon":    {in: "./0:", want: "0:"},
		"nul":            {in: "a\x00b", refused: true},
		"dots in a name": {in: "a..b/c...", want: "a..b/c..."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := CheckPath(tc.in)
			if tc.refused {
				if !errors.Is(err, ErrOutsideDir) {
					t.Fatalf("CheckPath(%q) = %q, %v; want ErrOutsideDir", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("CheckPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestReadFileRefusesTraversal(t *testing.T) {
	dir, _ := newTree(t)
	for _, p := range []string{"../secret/token.txt", "/etc/passwd", "leak.txt", "rel-leak.txt", "leakdir/token.txt", "sub/../../secret/token.txt"} {
		out, err := ReadFile(dir, p)
		if !errors.Is(err, ErrOutsideDir) {
			t.Errorf("ReadFile(%q) = %q, %v; want ErrOutsideDir", p, out, err)
		}
		if strings.Contains(out, "SECRET") || (err != nil && strings.Contains(err.Error(), "SECRET")) {
			t.Errorf("ReadFile(%q) leaked the outside file", p)
		}
		if err != nil && !strings.Contains(err.Error(), "outside the working directory") {
			t.Errorf("ReadFile(%q) error %q is not clear", p, err)
		}
	}
}

func TestListFilesRefusesTraversal(t *testing.T) {
	dir, _ := newTree(t)
	for _, p := range []string{"..", "../secret", "/", "leakdir"} {
		out, err := ListFiles(dir, p)
		if !errors.Is(err, ErrOutsideDir) {
			t.Errorf("ListFiles(%q) = %q, %v; want ErrOutsideDir", p, out, err)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir, _ := newTree(t)
	tests := map[string]struct {
		path, want string
		errIs      error
		errHas     string
	}{
		"file":         {path: "README.md", want: "# hello\n"},
		"nested":       {path: "sub/a.go", want: "package sub\n"},
		"inside link":  {path: "ok-link.md", want: "# hello\n"},
		"binary":       {path: "bin.dat", want: "(binary file, 5 bytes)\n"},
		"missing":      {path: "nope.txt", errIs: fs.ErrNotExist, errHas: "no such file"},
		"directory":    {path: "sub", errHas: "is a directory"},
		"root":         {path: "", errHas: "is a directory"},
		"no such root": {path: "x", errIs: fs.ErrNotExist, errHas: "open working directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := dir
			if name == "no such root" {
				d = filepath.Join(dir, "missing-dir")
			}
			got, err := ReadFile(d, tc.path)
			if tc.errIs == nil && tc.errHas == "" {
				if err != nil || got != tc.want {
					t.Fatalf("ReadFile(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ReadFile(%q) = %q; want an error", tc.path, got)
			}
			if tc.errIs != nil && !errors.Is(err, tc.errIs) {
				t.Errorf("error %v is not %v", err, tc.errIs)
			}
			if !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("error %q does not mention %q", err, tc.errHas)
			}
		})
	}
}

func TestReadFileTruncates(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("é", MaxReadBytes) // 2 bytes each: the cut lands inside a rune
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte("x"+big), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(dir, "big.txt")
	if err != nil {
		t.Fatal(err)
	}
	head, note, ok := strings.Cut(got, "\n… truncated")
	if !ok || !strings.Contains(note, "of 131073 bytes") {
		t.Fatalf("missing truncation note: %q", got[len(got)-80:])
	}
	if len(head) != MaxReadBytes-1 || !strings.HasSuffix(head, "é") {
		t.Fatalf("cut at %d bytes, want %d ending on a whole rune", len(head), MaxReadBytes-1)
	}
}

func TestListFiles(t *testing.T) {
	dir, _ := newTree(t)
	got, err := ListFiles(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := "README.md  (8 bytes)\nbin.dat  (5 bytes)\nleak.txt@\nleakdir@\nok-link.md@\nrel-leak.txt@\nsub/\n"
	if got != want {
		t.Fatalf("ListFiles = %q\nwant %q", got, want)
	}
	got, err = ListFiles(dir, "sub")
	if err != nil || got != "a.go  (12 bytes)\n" {
		t.Fatalf("ListFiles(sub) = %q, %v", got, err)
	}
	empty := t.TempDir()
	if got, err := ListFiles(empty, ""); err != nil || got != "(empty directory)\n" {
		t.Fatalf("ListFiles(empty) = %q, %v", got, err)
	}
	if _, err := ListFiles("", "."); !errors.Is(err, ErrNoDir) {
		t.Fatalf("ListFiles without dir: %v, want ErrNoDir", err)
	}
	if _, err := ListFiles(dir, "README.md"); err == nil {
		t.Fatal("ListFiles on a file: want an error")
	}
}

func TestListFilesCapsEntries(t *testing.T) {
	dir := t.TempDir()
	for i := range MaxListEntries + 5 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ListFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if len(lines) != MaxListEntries+1 || lines[len(lines)-1] != "… 5 more entries" {
		t.Fatalf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
