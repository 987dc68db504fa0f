package ahphost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDemoPathTraversalRefused(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	must(t, os.Mkdir(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(root, "secret.txt"), []byte("TOP-SECRET-CONTENT\n"), 0o644))
	// The file the demo picks to read is a symlink leading outside Dir.
	must(t, os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(dir, "README.md")))
	_, u := startHost(t, Options{NoToken: true, Dir: dir})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo tools", seq)
	_, end := driveTurn(t, w, chat, "t1", false, &seq)
	if end.typ() != "chat/turnComplete" {
		t.Fatalf("turn ended with %s", end.typ())
	}
	for _, e := range w.seen {
		if strings.Contains(string(e.Action), "TOP-SECRET") {
			t.Fatalf("secret leaked in %s", clip(e.Action))
		}
	}
	st := readChat(t, w, chat, 0)
	var readCall string
	for _, p := range st.Turns[0].ResponseParts {
		if p.ToolCall != nil && p.ToolCall.ToolName == "read_file" {
			b, _ := json.Marshal(p.ToolCall)
			readCall = string(b)
			if p.ToolCall.Success == nil || *p.ToolCall.Success {
				t.Fatalf("read_file outside the directory succeeded: %s", readCall)
			}
		}
	}
	if readCall == "" {
		t.Fatal("no read_file call")
	}
	raw, _ := json.Marshal(st)
	if !strings.Contains(string(raw), "outside the working directory") {
		t.Fatalf("no clear tool error in %s", clip([]byte(readCall)))
	}
}

// durationRE normalizes producer-measured durations.
var durationRE = regexp.MustCompile(`"duration":\d+`)

func TestDemoDeterministicThroughHost(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	run := func() []string {
		_, u := startHost(t, Options{NoToken: true, Dir: dir})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)
		chat := w.createSession("ahp-session:/s1")
		readChat(t, w, chat, 0)
		var out []string
		seq := uint64(0)
		for i, prompt := range []string{"How do I add a flag?", "/demo tools", "/demo input", "/demo nope"} {
			turn := "t" + string(rune('a'+i))
			seq++
			w.sendMessage(chat, turn, prompt, seq)
			w.seen = nil
			_, _ = driveTurn(t, w, chat, turn, true, &seq)
			for _, e := range w.seen {
				out = append(out, durationRE.ReplaceAllString(string(e.Action), `"duration":0`))
			}
		}
		return out
	}
	a, b := run(), run()
	if len(a) != len(b) || len(a) < 50 {
		t.Fatalf("runs differ in length: %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("action %d differs:\n%s\n%s", i, clip([]byte(a[i])), clip([]byte(b[i])))
		}
	}
}
