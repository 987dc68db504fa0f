package cli

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// TestHostSetDials: the UI's host list comes from the config file in file
// order; each Connect dials its own host over a real WebSocket (a down
// host and one that refuses the token fail on their own, with errors that
// carry neither token), and close ends every connection opened.
func TestHostSetDials(t *testing.T) {
	u, _ := startTestHost(t)
	bare := strings.Split(u, "?")[0]
	path := writeConfig(t, "[hosts.up]\nurl = \""+bare+"\"\ntoken_env = \"UP_TOKEN\"\n"+
		"[hosts.wrong]\nurl = \""+bare+"\"\ntoken_env = \"WRONG_TOKEN\"\n"+
		"[hosts.down]\nurl = \"ws://"+deadAddrFor(t)+"/\"\n")
	t.Setenv("UP_TOKEN", execToken)
	t.Setenv("WRONG_TOKEN", "wrong-secret-token-42")
	f, err := cfgfile.Load(path, true)
	must(t, err)
	if got := configuredAs(f, bare+"?tkn=x"); got != "up" {
		t.Fatalf("configuredAs %q", got)
	}
	var hs hostSet
	opts := hs.options(config{}, f, t.TempDir(), slog.New(slog.DiscardHandler))
	var names []string
	for _, o := range opts {
		names = append(names, o.Name)
	}
	if strings.Join(names, ",") != "up,wrong,down" || !strings.Contains(opts[0].Label, "up (127.0.0.1:") {
		t.Fatalf("hosts %v, label %q", names, opts[0].Label)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := opts[0].Connect(ctx)
	must(t, err)
	if _, err := b.ListSessions(ctx, 10, ""); err != nil {
		t.Fatalf("list on up: %v", err)
	}
	for _, o := range opts[1:] {
		_, err := o.Connect(ctx)
		if err == nil {
			t.Fatalf("%s connected", o.Name)
		}
		if s := err.Error(); strings.Contains(s, execToken) || strings.Contains(s, "wrong-secret-token-42") {
			t.Fatalf("%s: token in %q", o.Name, s)
		}
	}
	hs.close()
	if _, err := b.ListSessions(ctx, 10, ""); err == nil {
		t.Fatal("the connection outlived close")
	}
	if _, err := opts[0].Connect(ctx); err == nil || !strings.Contains(err.Error(), ahpclient.ErrClosed.Error()) {
		t.Fatalf("dial after close: %v", err)
	}
}
