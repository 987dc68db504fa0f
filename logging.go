package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// stateDir returns $XDG_STATE_HOME/ahptui, or ~/.local/state/ahptui.
func stateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "ahptui"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find state dir: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "ahptui"), nil
}

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
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	lf := &logFile{f: f, a: newAsyncLog(f, logQueueSize)}
	return lf.logger(secrets...), lf, nil
}

// newMaskedLogger builds a synchronous JSON logger on w whose messages and
// string attributes have every secret and every ?tkn= value masked.
func newMaskedLogger(w io.Writer, secrets ...string) *slog.Logger {
	return slog.New(maskedHandler(w, secrets...))
}

// maskedHandler is the JSON handler of newMaskedLogger.
func maskedHandler(w io.Writer, secrets ...string) slog.Handler {
	m := masker{secrets: nonEmpty(secrets)}
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch a.Value.Kind() {
			case slog.KindString:
				a.Value = slog.StringValue(m.mask(a.Value.String()))
			case slog.KindAny:
				if err, ok := a.Value.Any().(error); ok {
					a.Value = slog.StringValue(m.mask(err.Error()))
				} else if s, ok := a.Value.Any().(fmt.Stringer); ok {
					a.Value = slog.StringValue(m.mask(s.String()))
				}
			}
			return a
		},
	})
	return msgMasker{Handler: h, m: m}
}

// msgMasker masks the record message (ReplaceAttr only sees attributes).
type msgMasker struct {
	slog.Handler
	m masker
}

// Handle masks the message, then delegates.
func (h msgMasker) Handle(ctx context.Context, r slog.Record) error {
	r.Message = h.m.mask(r.Message)
	return h.Handler.Handle(ctx, r) //nolint:wrapcheck // pass-through
}

// WithAttrs keeps the masking wrapper.
func (h msgMasker) WithAttrs(as []slog.Attr) slog.Handler {
	return msgMasker{Handler: h.Handler.WithAttrs(as), m: h.m}
}

// WithGroup keeps the masking wrapper.
func (h msgMasker) WithGroup(name string) slog.Handler {
	return msgMasker{Handler: h.Handler.WithGroup(name), m: h.m}
}

var tknRe = regexp.MustCompile(`(?i)(tkn=|token=|bearer )[^&\s"']+`)

// masker hides secrets in free text.
type masker struct{ secrets []string }

func (m masker) mask(s string) string {
	for _, sec := range m.secrets {
		s = strings.ReplaceAll(s, sec, "****")
	}
	return tknRe.ReplaceAllString(s, "${1}****")
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
