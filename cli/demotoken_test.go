package cli

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
)

// TestDemoURLCommandsReachTheHost: inside `ahptui demo`, /demo url names
// the host's URL without its token and a 0600 file holding the token; the
// exec command it gives (token read from the file into AHPTUI_TOKEN)
// reaches the host, and the token is in no answer, output or log; the file
// goes when the demo ends.
func TestDemoURLCommandsReachTheHost(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_CONFIG", "")
	ag := demo.New(demo.Options{Dir: t.TempDir()})
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken, Agents: []ahphost.Agent{ag}})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	remove, err := announceDemoHost([]ahphost.Agent{ag}, u, h.Token())
	must(t, err)
	bare := urlWithoutToken(u)
	if bare == "" || strings.Contains(bare, "tkn") || strings.Contains(bare, execToken) {
		t.Fatalf("URL without token: %q (from %q)", bare, u)
	}
	// The answer, through a client of the host: URL and file, no token.
	t.Setenv("AHPTUI_TOKEN", execToken)
	code, out, errs := runIn(t, "", "exec", bare, "/demo url")
	if code != execCompleted || !strings.Contains(out, bare) || !strings.Contains(out, "AHPTUI_TOKEN=\"$(cat ") {
		t.Fatalf("/demo url: %d %q %q", code, out, errs)
	}
	path := strings.SplitN(strings.SplitN(out, "AHPTUI_TOKEN=\"$(cat ", 2)[1], ")", 2)[0]
	st, err := os.Stat(path)
	must(t, err)
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", st.Mode().Perm())
	}
	// The command it gives works: the token read from the file.
	tok, err := os.ReadFile(path)
	must(t, err)
	t.Setenv("AHPTUI_TOKEN", string(tok))
	if code, out, errs := runIn(t, "", "exec", bare, "hello from another terminal"); code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("exec with the token file: %d %q %q", code, out, errs)
	}
	remove()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("token file left behind: %v", err)
	}
}
