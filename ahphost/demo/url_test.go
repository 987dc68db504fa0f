package demo

import (
	"strings"
	"testing"
)

// TestDemoURLNamesTheTokenFileNotTheToken: /demo url answers with the
// host's URL and commands that read the token from its file; without
// connect info it says where to look instead.
func TestDemoURLNamesTheTokenFileNotTheToken(t *testing.T) {
	ag := testAgent(t.TempDir())
	rec, err := runTurn(t, ag, "t1", "/demo url", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := markdownText(rec.actions); !strings.Contains(text, "did not tell the demo how it is reached") {
		t.Fatalf("without connect info: %q", text)
	}
	ag.SetConnectInfo(ConnectInfo{URL: "ws://127.0.0.1:4321/", TokenFile: "/home/u/.local/state/ahptui/demo-42.token"})
	rec, err = runTurn(t, ag, "t2", "/demo url", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := markdownText(rec.actions)
	for _, want := range []string{
		"`ws://127.0.0.1:4321/`",
		"export AHPTUI_TOKEN=\"$(cat /home/u/.local/state/ahptui/demo-42.token)\"\n",
		"URL=ws://127.0.0.1:4321/\n",
		"ahptui exec \"$URL\" \"/demo tools\" --approve always\n",
		"ahptui sessions \"$URL\"\n",
		"mode 0600",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("%q not in %q", want, text)
		}
	}
	// Each command fits an 80-column terminal (4 columns of code-block
	// indent): a command the renderer wraps does not paste.
	block := text[strings.Index(text, "```sh\n")+6:]
	for _, line := range strings.Split(block[:strings.Index(block, "```")], "\n") {
		if len(line) > 76 {
			t.Errorf("command line of %d columns: %q", len(line), line)
		}
	}
	if strings.Contains(text, "tkn=") {
		t.Fatalf("a token parameter in %q", text)
	}
	if got := shellWord("/tmp/it's here"); got != `'/tmp/it'\''s here'` {
		t.Fatalf("quoted %s", got)
	}
}
