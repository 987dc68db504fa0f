package cli

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/acp"
)

// startACPHost runs a host with the scripted ACP agent (env added to its
// environment) on loopback, with a token.
func startACPHost(t *testing.T, env ...string) string {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_TOKEN", "")
	t.Setenv("AHPTUI_CONFIG", "")
	fake := sharedFakeACP(t)
	dir := t.TempDir()
	b, err := acp.New(acp.Config{Name: "fake", Title: "Fake", Command: fake, Env: env, Dir: dir, StateDir: t.TempDir()})
	must(t, err)
	h, err := ahphost.New(ahphost.Options{Dir: dir, Token: execToken, Agent: b})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	t.Setenv("AHPTUI_TOKEN", execToken)
	return u
}

// TestExecModeAndModel: exec --mode and --model choose the new session's
// mode and model among those the agent announced (by id or name, learnt
// when the agent first starts), before the prompt; an unknown one fails
// with the agent's choices, and nothing is sent.
func TestExecModeAndModel(t *testing.T) {
	u := startACPHost(t, "FAKEACP_MODELS=1")
	code, out, errs := runIn(t, "", "exec", "--mode", "Code", "--approve", "never", u, "mode")
	if code != execCompleted || strings.TrimSpace(out) != "Mode: code." {
		t.Fatalf("--mode Code: exit %d, %q, %s", code, out, errs)
	}
	code, out, errs = runIn(t, "", "exec", "--model", "fake-large", "--approve", "never", u, "model")
	if code != execCompleted || strings.TrimSpace(out) != "Model: fake-large." {
		t.Fatalf("--model fake-large: exit %d, %q, %s", code, out, errs)
	}
	code, out, errs = runIn(t, "", "exec", "--mode", "yolo", "--approve", "never", u, "mode")
	if code == execCompleted || out != "" || !strings.Contains(errs, `--mode: "yolo" is not one of this agent's: ask, code`) {
		t.Fatalf("--mode yolo: exit %d, %q, %s", code, out, errs)
	}
}

// TestExecShowsTheAgentsRetries: what the agent reports doing while its
// model API fails (AIR's session failure, as Claude Code's adapter sends
// it) is a note on stderr in plain mode and an "activity" event in JSON;
// the answer that follows is printed as usual.
func TestExecShowsTheAgentsRetries(t *testing.T) {
	u := startACPHost(t)
	code, out, errs := runIn(t, "", "exec", "--approve", "never", u, "airretry")
	if code != execCompleted || strings.TrimSpace(out) != "recovered after a retry" ||
		!strings.Contains(errs, "ahptui: agent: Retrying Fake, attempt 1 of 3.") {
		t.Fatalf("exit %d, %q, stderr %s", code, out, errs)
	}
	code, out, errs = runIn(t, "", "exec", "--json", "--approve", "never", u, "airretry")
	if code != execCompleted || !strings.Contains(out, `"activity":"agent: Retrying Fake, attempt 1 of 3."`) || !strings.Contains(out, `"type":"activity"`) {
		t.Fatalf("json: exit %d, %s, stderr %s", code, out, errs)
	}
}
