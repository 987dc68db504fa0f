package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// errOutside refuses a path outside the session's working directory.
var errOutside = errors.New("the path is outside the session's working directory")

// confine resolves an absolute path inside dir: no "..", and no symbolic
// link (of the file or any parent that exists) may lead out of dir. It
// returns the resolved path.
func confine(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q: the path must be absolute", path)
	}
	clean := filepath.Clean(path)
	if clean != filepath.Clean(strings.TrimSuffix(path, string(filepath.Separator))) || strings.Contains(path, "..") {
		return "", fmt.Errorf("%q: %w", path, errOutside)
	}
	if !within(dir, clean) {
		return "", fmt.Errorf("%q: %w", path, errOutside)
	}
	// Resolve the longest existing prefix; what does not exist yet cannot
	// be a link.
	existing, rest := clean, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("%q: %w", path, err)
	}
	resolved := filepath.Join(real, rest)
	if !within(dir, resolved) {
		return "", fmt.Errorf("%q: %w", path, errOutside)
	}
	return resolved, nil
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// relOf is path (already confined to dir) relative to dir, "/" separated.
func relOf(dir, path string) string {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	if err != nil {
		return "."
	}
	return filepath.ToSlash(rel)
}

// readBeneath reads the regular file rel inside dir, of at most limit
// bytes: its size is checked before anything is read, nothing follows a
// link out of dir and a FIFO is refused without waiting. reserve, when
// not nil, is asked for the bytes before they are read (the answer queue).
func readBeneath(dir, rel string, limit int64, reserve func(int64) error) ([]byte, error) {
	f, err := openBeneath(dir, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := regular(f)
	if err != nil {
		return nil, err
	}
	if size > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes (%d)", rel, limit, size)
	}
	if reserve != nil {
		if err := reserve(size); err != nil {
			return nil, err
		}
	}
	b := make([]byte, 0, size+1)
	b, err = readAtMost(f, b, limit+1)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", rel, limit)
	}
	return b, nil
}

// readAtMost appends at most n bytes of r to b.
func readAtMost(r io.Reader, b []byte, n int64) ([]byte, error) {
	lr := io.LimitReader(r, n)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		k, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// writeBeneath writes content to the regular file rel inside dir
// (creating it and its directories), following no link out of dir.
func writeBeneath(dir, rel string, content []byte) error {
	f, err := openBeneath(dir, rel, os.O_WRONLY|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := mkdirBeneath(dir, path.Dir(rel)); err != nil {
			return err
		}
		f, err = openBeneath(dir, rel, os.O_WRONLY|os.O_CREATE, 0o644)
	}
	if err != nil {
		return err
	}
	if _, err := regular(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadTextFile serves fs/read_text_file inside the session's directory.
func (c *client) ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	s := c.b.sessionByACP(p.SessionId)
	if s == nil {
		return sdk.ReadTextFileResponse{}, errNoSession
	}
	path, err := confine(s.dir, p.Path)
	if err != nil {
		c.b.log.Warn("refused fs/read_text_file", "path", p.Path, "err", err)
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	done, err := c.b.limits.fileIO(ctx)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	var giveBack func(int64)
	full := false
	b, err := readBeneath(s.dir, relOf(s.dir, path), c.b.cfg.MaxFileBytes, func(n int64) error {
		g, ok := c.b.limits.reserve(ctx, n)
		if !ok {
			full = true
			return errQueueFull(n, c.b.limits.maxQueue)
		}
		giveBack = g
		return nil
	})
	done()
	if full {
		c.b.log.Warn("refused fs/read_text_file: the answer queue is full", "path", p.Path)
		return sdk.ReadTextFileResponse{}, err
	}
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	content := string(b)
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(content, "\n")
		start := 0
		if p.Line != nil && *p.Line > 1 {
			start = min(*p.Line-1, len(lines))
		}
		end := len(lines)
		if p.Limit != nil && *p.Limit >= 0 && start+*p.Limit < end {
			end = start + *p.Limit
		}
		content = strings.Join(lines[start:end], "")
		giveBack(int64(len(b) - len(content)))
	}
	return sdk.ReadTextFileResponse{Content: content}, nil
}

// WriteTextFile serves fs/write_text_file inside the session's directory,
// recording the file's before and after content in the changeset.
func (c *client) WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	s := c.b.sessionByACP(p.SessionId)
	if s == nil {
		return sdk.WriteTextFileResponse{}, errNoSession
	}
	path, err := confine(s.dir, p.Path)
	if err != nil {
		c.b.log.Warn("refused fs/write_text_file", "path", p.Path, "err", err)
		return sdk.WriteTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if int64(len(p.Content)) > c.b.cfg.MaxFileBytes {
		return sdk.WriteTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("content larger than %d bytes", c.b.cfg.MaxFileBytes)})
	}
	done, err := c.b.limits.fileIO(ctx)
	if err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	defer done()
	rel := relOf(s.dir, path)
	before, rerr := readBeneath(s.dir, rel, c.b.cfg.MaxFileBytes, nil)
	existed := rerr == nil
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": rerr.Error()})
	}
	if err := writeBeneath(s.dir, rel, []byte(p.Content)); err != nil {
		c.b.log.Warn("fs/write_text_file failed", "path", p.Path, "err", err)
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	s.recordChange(filepath.FromSlash(rel), fileBefore{text: string(before), existed: existed}, p.Content)
	if tm := s.activeTurn(); tm != nil {
		tm.publishChanges()
	}
	return sdk.WriteTextFileResponse{}, nil
}
