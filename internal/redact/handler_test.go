package redact

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

// TestHandlerMasksEverything: message, attributes of every kind, groups,
// With attributes and nested handlers are all masked.
func TestHandlerMasksEverything(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			opts := &slog.HandlerOptions{Level: slog.LevelDebug}
			var inner slog.Handler = slog.NewTextHandler(&buf, opts)
			if format == "json" {
				inner = slog.NewJSONHandler(&buf, opts)
			}
			l := slog.New(NewHandler(inner, New("tok-SECRET-1")))
			l = l.With("url", "ws://h/?tkn=tok-SECRET-1", "u", &url.URL{Scheme: "ws", Host: "h", User: url.UserPassword("a", "pw-SECRET-2")})
			l.WithGroup("g").Warn("dial ws://h/?tkn=tok-SECRET-1 failed",
				"err", errors.New("Get ws://h/?tkn=tok-SECRET-1: refused"),
				"hdr", "Bearer tok-SECRET-3", slog.Group("inner", "v", "tok-SECRET-1"), "n", 3,
				"s", stringer{"--token tok-SECRET-4"}, "b", []byte("AHPTUI_TOKEN=tok-SECRET-5"),
				"any", map[string]string{"Authorization": "Bearer tok-SECRET-6"},
				"tok-SECRET-1", "key")
			l.Debug("ok", "user", "ws://x:pw-SECRET-7@h/")
			out := buf.String()
			if strings.Contains(out, "SECRET") {
				t.Fatalf("token in log: %s", out)
			}
			if !strings.Contains(out, "3") || strings.Count(out, "\n") != 2 {
				t.Fatalf("record lost: %s", out)
			}
		})
	}
}

// TestHandlerNesting: wrapping a masking handler again merges the secrets.
func TestHandlerNesting(t *testing.T) {
	var buf bytes.Buffer
	h := NewHandler(slog.NewTextHandler(&buf, nil), New("first-secret"))
	h2 := NewHandler(h, New("second-secret"))
	slog.New(h2).Info("first-secret second-secret")
	slog.New(h).Info("second-secret")
	out := buf.String()
	if strings.Contains(out, "first-secret") || strings.Count(out, "second-secret") != 1 {
		t.Fatalf("nesting: %s", out)
	}
	if Logger(nil, Masker{}) == nil {
		t.Fatal("nil logger")
	}
}
