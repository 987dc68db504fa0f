package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/internal/safefile"
)

// stateDir returns $XDG_STATE_HOME/ahptui, or ~/.local/state/ahptui;
// a directory there owned by another user or writable by others is
// refused (internal/safefile).
func stateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return checkedStateDir(filepath.Join(d, "ahptui"))
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find state dir: %w", err)
		}
		home = h
	}
	return checkedStateDir(filepath.Join(home, ".local", "state", "ahptui"))
}

// checkedStateDir returns dir unless another user could change it.
func checkedStateDir(dir string) (string, error) {
	if err := safefile.CheckDir(dir); err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return dir, nil
}

// logPathFor is the log file cfg writes to ("" if it cannot be known).
func logPathFor(cfg config) string {
	if cfg.logFile != "" {
		return cfg.logFile
	}
	dir, err := stateDir(lookupEnv)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "ahptui.log")
}

// maskBytes returns b as text with every credential masked.
func maskBytes(b []byte) string { return redact.String(string(b)) }

// logFile is the open log file behind an asynchronous queue.
type logFile struct {
	f *os.File
	a *asyncLog
}

// logger returns a logger on the file that masks the given secrets.
func (l *logFile) logger(secrets ...string) *slog.Logger { return l.a.logger(secrets...) }

// Close drains the queue, then closes the file.
func (l *logFile) Close() error {
	_ = l.a.Close()
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("close log: %w", err)
	}
	return nil
}

// openLog opens the log file (appending) and returns a JSON slog logger that
// masks the token everywhere and writes the file from its own goroutine
// (see asyncLog). Nothing is ever logged to the terminal.
func openLog(path string, secrets ...string) (*slog.Logger, *logFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("create log dir: %w", err)
	}
	f, err := safefile.OpenAppend(path, 0o600) // never through a link placed there
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	lf := &logFile{f: f, a: newAsyncLog(f, logQueueSize)}
	return lf.logger(secrets...), lf, nil
}

// newMaskedLogger builds a synchronous JSON logger on w whose records have
// every secret and every recognisable token masked (internal/redact).
func newMaskedLogger(w io.Writer, secrets ...string) *slog.Logger {
	return slog.New(maskedHandler(w, secrets...))
}

// maskedHandler is the JSON handler of newMaskedLogger.
func maskedHandler(w io.Writer, secrets ...string) slog.Handler {
	return redact.NewHandler(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}), redact.New(secrets...))
}
