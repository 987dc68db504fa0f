package demo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Tool names the demo agent uses in chat/toolCallStart. Only ToolListFiles and
// ToolReadFile touch the file system (read-only); the others are simulated.
const (
	ToolListFiles  = "list_files"
	ToolReadFile   = "read_file"
	ToolEditFile   = "edit_file"
	ToolRunCommand = "run_command"
)

// Limits of the read-only tools.
const (
	// MaxListEntries is the most directory entries list_files reports.
	MaxListEntries = 200
	// MaxReadBytes is the most bytes read_file returns; longer files are cut.
	MaxReadBytes = 64 << 10
)

// ErrOutsideDir is returned (wrapped) when a tool path would leave the working
// directory: an absolute path, a path climbing out with "..", or a symbolic
// link that points outside.
var ErrOutsideDir = errors.New("path is outside the working directory")

// ErrNoDir is returned when the agent has no working directory to serve.
var ErrNoDir = errors.New("no working directory configured")

// CheckPath validates a tool path lexically and returns it in clean,
// slash-separated, relative form ("." for the directory itself). Empty means
// ".". Absolute paths, drive or UNC prefixes, NUL bytes and paths that climb
// above the root with ".." are refused with an error wrapping ErrOutsideDir.
// Symbolic links are checked when the path is opened (see ListFiles, ReadFile).
func CheckPath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte: %w", p, ErrOutsideDir)
	}
	if p == "" {
		return ".", nil
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(slashed, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || hasDrive(slashed) {
		return "", fmt.Errorf("absolute path %q refused: %w", p, ErrOutsideDir)
	}
	for _, elem := range strings.Split(slashed, "/") {
		if elem == ".." {
			return "", fmt.Errorf("path %q uses \"..\": %w", p, ErrOutsideDir)
		}
	}
	clean := path.Clean(slashed)
	if hasDrive(clean) { // "./c:x" cleans to a drive-relative Windows path
		return "", fmt.Errorf("drive path %q refused: %w", p, ErrOutsideDir)
	}
	return clean, nil
}

// hasDrive reports whether p starts with a Windows drive letter ("c:").
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// openRoot checks p and opens dir as an os.Root, which refuses symbolic links
// that escape it. The caller closes the root.
func openRoot(dir, p string) (*os.Root, string, error) {
	if dir == "" {
		return nil, "", ErrNoDir
	}
	clean, err := CheckPath(p)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("open working directory: %w", err)
	}
	return root, clean, nil
}

// rootErr turns an os.Root error into a clear tool error: escapes become
// ErrOutsideDir, everything else keeps its cause (e.g. fs.ErrNotExist).
func rootErr(op, p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %q: no such file or directory: %w", op, p, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "escapes") || strings.Contains(msg, "outside") {
		return fmt.Errorf("%s %q: symbolic link leads outside the working directory: %w", op, p, ErrOutsideDir)
	}
	return fmt.Errorf("%s %q: %w", op, p, err)
}

// ListFiles lists the directory p (relative to dir; "" means dir itself), one
// entry per line in name order: directories end in "/", symbolic links in
// "@", regular files show their size. At most MaxListEntries are listed.
// Paths outside dir are refused with an error wrapping ErrOutsideDir.
func ListFiles(dir, p string) (string, error) {
	root, clean, err := openRoot(dir, p)
	if err != nil {
		return "", fmt.Errorf("list_files: %w", err)
	}
	defer root.Close()
	info, err := root.Stat(clean)
	if err != nil {
		return "", fmt.Errorf("list_files: %w", rootErr("stat", clean, err))
	}
	if !info.IsDir() {
		return "", fmt.Errorf("list_files: %q is not a directory (use read_file)", clean)
	}
	f, err := root.Open(clean)
	if err != nil {
		return "", fmt.Errorf("list_files: %w", rootErr("open", clean, err))
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return "", fmt.Errorf("list_files: read directory %q: %w", clean, err)
	}
	sortEntries(entries)
	var b strings.Builder
	for i, e := range entries {
		if i == MaxListEntries {
			fmt.Fprintf(&b, "… %d more entries\n", len(entries)-i)
			break
		}
		b.WriteString(describeEntry(e))
		b.WriteByte('\n')
	}
	if len(entries) == 0 {
		b.WriteString("(empty directory)\n")
	}
	return b.String(), nil
}

// sortEntries orders entries by name (ReadDir on a File does not sort).
func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// describeEntry renders one listing line.
func describeEntry(e fs.DirEntry) string {
	switch {
	case e.IsDir():
		return e.Name() + "/"
	case e.Type()&fs.ModeSymlink != 0:
		return e.Name() + "@"
	}
	info, err := e.Info()
	if err != nil || !info.Mode().IsRegular() {
		return e.Name()
	}
	return fmt.Sprintf("%s  (%d bytes)", e.Name(), info.Size())
}

// ReadFile returns the text of file p (relative to dir), cut to MaxReadBytes
// with a note when longer. Binary files (containing NUL bytes) are described,
// not returned. Paths outside dir, including symbolic links that lead
// outside, are refused with an error wrapping ErrOutsideDir.
func ReadFile(dir, p string) (string, error) {
	root, clean, err := openRoot(dir, p)
	if err != nil {
		return "", fmt.Errorf("read_file: %w", err)
	}
	defer root.Close()
	if clean == "." {
		return "", fmt.Errorf("read_file: %q is a directory (use list_files)", p)
	}
	// Stat first: opening a FIFO or device would block or never end.
	info, err := root.Stat(clean)
	if err != nil {
		return "", fmt.Errorf("read_file: %w", rootErr("stat", clean, err))
	}
	if info.IsDir() {
		return "", fmt.Errorf("read_file: %q is a directory (use list_files)", clean)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("read_file: %q is not a regular file", clean)
	}
	f, err := root.Open(clean)
	if err != nil {
		return "", fmt.Errorf("read_file: %w", rootErr("open", clean, err))
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return "", fmt.Errorf("read_file: read %q: %w", clean, err)
	}
	if strings.IndexByte(string(buf), 0) >= 0 {
		return fmt.Sprintf("(binary file, %d bytes)\n", info.Size()), nil
	}
	if len(buf) > MaxReadBytes {
		cut := validUTF8Prefix(buf[:MaxReadBytes])
		return string(cut) + fmt.Sprintf("\n… truncated: showing %d of %d bytes\n", len(cut), info.Size()), nil
	}
	return string(buf), nil
}

// validUTF8Prefix drops a trailing partial UTF-8 sequence left by a cut.
func validUTF8Prefix(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return b
}

// toolErrorCode classifies a tool error for ToolError.code.
func toolErrorCode(err error) string {
	switch {
	case errors.Is(err, ErrOutsideDir):
		return "outside_working_directory"
	case errors.Is(err, fs.ErrNotExist):
		return "not_found"
	case errors.Is(err, ErrNoDir):
		return "no_working_directory"
	}
	return "io_error"
}
