package ahpclient

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func TestMaskToken(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"query":           {"ws://h:1/?tkn=s3cr3t", "ws://h:1/?tkn=***"},
		"query middle":    {"ws://h:1/x?a=1&tkn=s3cr3t&b=2", "ws://h:1/x?a=1&tkn=***&b=2"},
		"quoted url":      {`Get "http://127.0.0.1:9/?tkn=abc.def": refused`, `Get "http://127.0.0.1:9/?tkn=***": refused`},
		"percent encoded": {"next=%3Ftkn%3Dabcdef", "next=%3Ftkn%3D***"},
		"bearer":          {"Authorization: Bearer abc.def-ghi", "Authorization: Bearer ***"},
		"bearer lower":    {"authorization: bearer xyz", "authorization: bearer ***"},
		"flag":            {"ahptui --token hunter2 ws://x", "ahptui --token *** ws://x"},
		"flag eq":         {"--token=hunter2", "--token=***"},
		"json":            {`{"token":"hunter2"}`, `{"token":"***"}`},
		"nothing":         {"connection refused", "connection refused"},
		"empty":           {"", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := MaskToken(tc.in)
			if got != tc.want {
				t.Fatalf("MaskToken(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := MaskToken(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestMaskerSecret(t *testing.T) {
	m := masker{secret: "Zq9-very-secret"}
	got := m.mask("dial failed for host with key Zq9-very-secret inside")
	if strings.Contains(got, "Zq9-very-secret") {
		t.Fatalf("secret not masked: %q", got)
	}
}

func FuzzMaskToken(f *testing.F) {
	f.Add("ws://h/?tkn=abc")
	f.Add("Bearer x y z")
	f.Add("--token=a&tkn=b")
	f.Fuzz(func(t *testing.T, s string) {
		out := MaskToken(s)
		if MaskToken(out) != out {
			t.Fatalf("not idempotent for %q", s)
		}
		if strings.Contains(s, "?tkn=SECRETVALUE") && strings.Contains(out, "SECRETVALUE") {
			t.Fatalf("token leaked: %q", out)
		}
	})
}

func TestLogsNeverCarryTheToken(t *testing.T) {
	var buf strings.Builder
	l := newMaskedLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), masker{secret: "tok-SECRET-1"})
	l = l.With("url", "ws://h/?tkn=tok-SECRET-1")
	l.WithGroup("g").Warn("dial ws://h/?tkn=tok-SECRET-1 failed",
		"err", errors.New("Get ws://h/?tkn=tok-SECRET-1: refused"),
		"hdr", "Bearer tok-SECRET-1", slog.Group("inner", "v", "tok-SECRET-1"), "n", 3)
	if strings.Contains(buf.String(), "SECRET") {
		t.Fatalf("token in log: %s", buf.String())
	}
	if !strings.Contains(buf.String(), "n=3") {
		t.Fatalf("non-string attribute lost: %s", buf.String())
	}
}
