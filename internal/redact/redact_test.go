package redact

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// TestStringPlacements is the table of every placement a token can take.
func TestStringPlacements(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"query":                {"ws://h:1/?tkn=s3cr3t", "ws://h:1/?tkn=***"},
		"query middle":         {"ws://h:1/x?a=1&tkn=s3cr3t&b=2", "ws://h:1/x?a=1&tkn=***&b=2"},
		"query upper":          {"ws://h/?TKN=s3cr3t", "ws://h/?TKN=***"},
		"query token=":         {"wss://h/?token=s3cr3t#f", "wss://h/?token=***#f"},
		"quoted url":           {`Get "http://127.0.0.1:9/?tkn=abc.def": refused`, `Get "http://127.0.0.1:9/?tkn=***": refused`},
		"percent encoded":      {"next=%3Ftkn%3Dabcdef", "next=%3Ftkn%3D***"},
		"percent encoded amp":  {"u=ws%3A%2F%2Fh%2F%3Fa%3D1%26tkn%3Dabcdef%26b%3D2", "u=ws%3A%2F%2Fh%2F%3Fa%3D1%26tkn%3D***%26b%3D2"},
		"double encoded":       {"x%253Ftkn%253Dabcdef", "x%253Ftkn%253D***"},
		"bearer header":        {"Authorization: Bearer abc.def-ghi", "Authorization: Bearer ***"},
		"bearer lower":         {"authorization: bearer xyz", "authorization: bearer ***"},
		"basic header":         {"Authorization: Basic dXNlcjpwdw==", "Authorization: Basic ***"},
		"bare header":          {"Authorization: rawsecret", "Authorization: ***"},
		"header map":           {"map[Authorization:[Bearer abc123]]", "map[Authorization:[Bearer ***]]"},
		"bearer alone":         {"sent Bearer abc123 to host", "sent Bearer *** to host"},
		"flag":                 {"ahptui --token hunter2 ws://x", "ahptui --token *** ws://x"},
		"flag eq":              {"--token=hunter2", "--token=***"},
		"flag single dash":     {"ahptui -token hunter2", "ahptui -token ***"},
		"env":                  {"AHPTUI_TOKEN=hunter2 ahptui demo", "AHPTUI_TOKEN=*** ahptui demo"},
		"env quoted":           {`export AHPTUI_TOKEN="hunter2"`, `export AHPTUI_TOKEN="***"`},
		"json":                 {`{"token":"hunter2"}`, `{"token":"***"}`},
		"json spaced":          {`{"token": "hunter2", "n": 1}`, `{"token": "***", "n": 1}`},
		"yaml-ish":             {"token: hunter2", "token: ***"},
		"userinfo":             {"ws://user:SECRET@host:1/", "ws://user:***@host:1/"},
		"userinfo in error":    {`dial "wss://bob:pa55@h/x?y=1": refused`, `dial "wss://bob:***@h/x?y=1": refused`},
		"userinfo and query":   {"ws://u:pw12@h/?tkn=tk12", "ws://u:***@h/?tkn=***"},
		"user only kept":       {"ssh://alice@host", "ssh://alice@host"},
		"usage counts kept":    {"inputTokens=12 outputTokens=7", "inputTokens=12 outputTokens=7"},
		"token_env kept":       {`token_env = "AHP_TOKEN"`, `token_env = "AHP_TOKEN"`},
		"nothing":              {"connection refused", "connection refused"},
		"empty":                {"", ""},
		"word token kept":      {"the token was wrong", "the token was wrong"},
		"pitkn= is not a key":  {"ws://h/?pitkn=1", "ws://h/?pitkn=1"},
		"api key param":        {"ws://h/?api_key=1&keep=plain&Secret=s&password=p", "ws://h/?api_key=***&keep=plain&Secret=***&password=***"},
		"monkey outside query": {"monkey=banana", "monkey=banana"},
		"two tokens":           {"?tkn=a1b2&x=1 and ?tkn=c3d4", "?tkn=***&x=1 and ?tkn=***"},
		"userinfo placeholder": {"ws://user:***@h/", "ws://user:***@h/"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := String(tc.in)
			if got != tc.want {
				t.Fatalf("String(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := String(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestMaskerSecrets: a known secret is masked wherever it appears, also
// percent-encoded and inside words; short secrets are not used verbatim.
func TestMaskerSecrets(t *testing.T) {
	m := New("Zq9/very+secret", "", "ab")
	for _, in := range []string{
		"key Zq9/very+secret inside",
		"escaped Zq9%2Fvery%2Bsecret here",
		"path Zq9%2Fvery+secret here",
		"glued xZq9/very+secretx",
	} {
		got := m.String(in)
		if strings.Contains(got, "very") {
			t.Errorf("secret not masked: %q -> %q", in, got)
		}
	}
	if got := m.String("abc tab"); got != "abc tab" {
		t.Errorf("short secret used verbatim: %q", got)
	}
}

// TestMaskerWithURL: the URL's password and tkn are masked as literals
// even where no pattern would find them.
func TestMaskerWithURL(t *testing.T) {
	m := Masker{}.WithURL("ws://bob:PASSWORD9@h:1/?tkn=TOKEN99&x=1")
	got := m.String("auth failed for PASSWORD9 with TOKEN99")
	if strings.Contains(got, "PASSWORD9") || strings.Contains(got, "TOKEN99") {
		t.Fatalf("not masked: %q", got)
	}
	if m2 := (Masker{}).WithURL("::not a url"); len(m2.secrets) != 0 {
		t.Fatalf("bad URL added secrets: %v", m2.secrets)
	}
}

// TestMaskerError: the masked error keeps the chain.
func TestMaskerError(t *testing.T) {
	m := New("tok-SECRET")
	base := fmt.Errorf("dial ws://h/?tkn=tok-SECRET: %w", fs.ErrNotExist)
	err := m.Error(base)
	if strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("error text leaks: %v", err)
	}
	if !errors.Is(err, fs.ErrNotExist) || !IsMasked(err) {
		t.Fatalf("chain lost: %v", err)
	}
	plain := errors.New("refused")
	if m.Error(plain) != plain || m.Error(nil) != nil {
		t.Fatal("clean error or nil changed")
	}
}

func FuzzString(f *testing.F) {
	f.Add("ws://h/?tkn=abc")
	f.Add("Bearer x y z")
	f.Add("--token=a&tkn=b")
	f.Add("ws://u:p@h/")
	f.Add("AHPTUI_TOKEN=x")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if String(out) != out {
			t.Fatalf("not idempotent for %q: %q -> %q", s, out, String(out))
		}
		for _, leak := range []string{"?tkn=SECRETVALUE", "ws://u:SECRETVALUE@", "--token SECRETVALUE", "AHPTUI_TOKEN=SECRETVALUE"} {
			if strings.Contains(s, leak) && strings.Contains(out, leak) {
				t.Fatalf("token leaked: %q", out)
			}
		}
	})
}

// TestBareAPIKeys: API keys standing alone (an agent's stderr, an error)
// are masked; their prefix stays, short sk- words do not match.
func TestBareAPIKeys(t *testing.T) {
	for in, want := range map[string]string{
		"using key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz_0123":     "using key sk-ant-***",
		"OPENAI=sk-proj-0123456789abcdefghijKLMNOP done":              "OPENAI=sk-*** done",
		"key:sk-0123456789abcdefghij0123456789abcdefghij0123":         "key:sk-***",
		"the sk-learn package and desk-top-tools-for-everyone-really": "the sk-learn package and desk-top-tools-for-everyone-really",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
