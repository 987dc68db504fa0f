package ahpclient

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipURIKeepsUTF8Valid(t *testing.T) {
	s := strings.Repeat("a", 119) + "€€€"
	got := clipURI(s)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 120+len("…") {
		t.Fatalf("clipURI = %q", got)
	}
	if clipURI("short") != "short" {
		t.Fatal("a short URI was changed")
	}
}
