package cli

import (
	"strings"
	"testing"
)

// TestConfigCheckSanitisesHostileNames: a key name holding terminal
// escapes (a title-setting OSC and an OSC 52 clipboard write) is printed
// by `config check` through the sanitiser, both in its report and in its
// errors (issue 24 item 12).
func TestConfigCheckSanitisesHostileNames(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_CONFIG", "")
	evil := `\u001b]0;pwned\u0007\u001b]52;c;cm0gLXJmIH4=\u0007`
	for name, text := range map[string]string{
		"report": "[hosts.\"" + evil + "\"]\nurl = \"ws://127.0.0.1:1/\"\n",
		"error":  "[hosts.\"" + evil + "\"]\nurl = \"ws://127.0.0.1:1/\"\n\"" + evil + "\" = 1\n",
	} {
		writeConfig(t, text)
		_, out, errs := runIn(t, "", "config", "check")
		if !strings.Contains(errs, "config.toml") {
			t.Fatalf("%s: no report: %q %q", name, out, errs)
		}
		if strings.ContainsAny(out+errs, "\x1b\x07") {
			t.Fatalf("%s: raw escapes printed: %q %q", name, out, errs)
		}
	}
}

// TestConfigCheckAdviceAndURLToken: config check's advice is not masked by
// its own token masking, and a token in a configured URL is warned about.
func TestConfigCheckAdviceAndURLToken(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_CONFIG", "")
	writeConfig(t, "[hosts.box]\nurl = \"ws://127.0.0.1:1/\"\ntoken = \"s3cr3t-value\"\n")
	code, _, errs := runIn(t, "", "config", "check")
	if code != exitUsage || !strings.Contains(errs, "allow_plaintext_token to true") || strings.Contains(errs, "s3cr3t") {
		t.Fatalf("plaintext token advice: %d %q", code, errs)
	}
	writeConfig(t, "[hosts.box]\nurl = \"ws://127.0.0.1:1/?tkn=s3cr3t-value\"\n")
	code, out, errs := runIn(t, "", "config", "check")
	if code != exitOK || !strings.Contains(errs, "hosts.box.url holds a token in clear") || strings.Contains(errs+out, "s3cr3t") {
		t.Fatalf("URL token: %d %q %q", code, out, errs)
	}
}
