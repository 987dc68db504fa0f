package cli

import (
	"strings"
	"testing"
)

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
