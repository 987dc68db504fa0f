package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

func TestComposerCommandsAgainstHost(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, url := startHost(t, ahphost.Options{Dir: dir})
	c, err := New(testOptions(t, url))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	k := consume(t, c)
	defer k.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	f := c.HostFeatures()
	if strings.Join(f.CompletionTriggerCharacters, "") != "@/" || !strings.HasPrefix(f.DefaultDirectory, "file://") {
		t.Fatalf("features %+v", f)
	}
	res, err := c.ResolveSessionConfig(ctx, ahpwire.ResolveSessionConfigParams{Provider: "demo", WorkingDirectory: f.DefaultDirectory})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Schema.Keys(), ","); got != "model,mode" {
		t.Fatalf("schema keys %s", got)
	}
	vals, err := c.SessionConfigCompletions(ctx, ahpwire.SessionConfigCompletionsParams{Property: "model"})
	if err != nil || len(vals) != 2 {
		t.Fatalf("model values %+v %v", vals, err)
	}
	cfg := res.Values
	cfg["mode"] = json.RawMessage(`"plan"`)
	if err := c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: "ahp-session:/c", Provider: "demo", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	snap, err := c.Subscribe(ctx, "ahp-session:/c", nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ahpwire.DecodeSessionState(snap.State)
	if err != nil || st.Config == nil || string(st.Config.Values["mode"]) != `"plan"` {
		t.Fatalf("session config %+v %v", st.Config, err)
	}
	items, err := c.Completions(ctx, st.DefaultChat, "see @mai", 8)
	if err != nil || len(items) != 1 || items[0].InsertText != "@main.go" || items[0].Attachment.Type != ahpwire.AttachmentResource {
		t.Fatalf("completions %+v %v", items, err)
	}
	if _, err := c.Completions(ctx, "ahp-chat:/missing", "@", 1); err == nil {
		t.Fatal("completions on a missing chat succeeded")
	}
	var re *ahpwire.RPCError
	if err := c.Authenticate(ctx, "https://unknown.example", "tok"); !errors.As(err, &re) || re.Code != ahpwire.CodeInvalidParams {
		t.Fatalf("unknown resource: %v", err)
	}
	if err := c.Authenticate(ctx, "https://demo-api.ahptui.invalid", "tok-123"); err != nil {
		t.Fatal(err)
	}
	if err := c.Authenticate(ctx, "https://demo-api.ahptui.invalid", "tok-123"); err != nil && strings.Contains(err.Error(), "tok-123") {
		t.Fatal("token in an error")
	}
}
