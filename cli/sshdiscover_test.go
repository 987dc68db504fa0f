//go:build !windows

package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSSH writes an "ssh" that runs the remote command locally with HOME
// and XDG_STATE_HOME pointing at home, to exercise the discovery script.
func fakeSSH(t *testing.T, home string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ssh")
	script := fmt.Sprintf("#!/bin/sh\nfor a; do last=$a; done\nHOME=%q XDG_STATE_HOME= exec sh -c \"$last\"\n", home)
	must(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

func TestDiscoverScript(t *testing.T) {
	home := t.TempDir()
	ssh := fakeSSH(t, home)
	ctx := context.Background()

	p, err := discover(ctx, ssh, nil, "h")
	if _, ok := p.found(); err != nil || ok {
		t.Fatalf("empty machine: ok %v err %v", ok, err)
	}
	if p.uname == "" || p.binDir != filepath.Join(home, ".local", "share", "ahptui", "bin") || len(p.installed) != 0 {
		t.Fatalf("empty machine: %+v", p)
	}
	// pi-ahp settings.
	must(t, os.MkdirAll(filepath.Join(home, ".pi", "ahp"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".pi", "ahp", "settings.json"), []byte(`{"host":"localhost","port":4321,"token":"pi-tok"}`), 0o600))
	h, ok, err := found(discover(ctx, ssh, nil, "h"))
	if err != nil || !ok || h.kind != "pi-ahp" || h.target != "127.0.0.1:4321" || h.token != "pi-tok" {
		t.Fatalf("pi: %+v %v %v", h, ok, err)
	}
	// A stale serve state file (dead pid) is ignored; a live one wins.
	state := filepath.Join(home, ".local", "state", "ahptui")
	must(t, os.MkdirAll(state, 0o700))
	write := func(pid int) {
		must(t, os.WriteFile(filepath.Join(state, serveStateName),
			[]byte(fmt.Sprintf(`{"url":"ws://127.0.0.1:999/?tkn=s","addr":"127.0.0.1:999","token":"s","pid":%d,"version":"dev"}`, pid)), 0o600))
	}
	write(1 << 30)
	if h, _, _ := found(discover(ctx, ssh, nil, "h")); h.kind != "pi-ahp" {
		t.Fatalf("stale serve state used: %+v", h)
	}
	write(os.Getpid())
	h, ok, err = found(discover(ctx, ssh, nil, "h"))
	if err != nil || !ok || h.kind != "ahptui serve" || h.target != "127.0.0.1:999" || h.token != "s" {
		t.Fatalf("serve: %+v %v %v", h, ok, err)
	}
}

// found is probe.found with discover's error.
func found(p probe, err error) (remoteHost, bool, error) {
	h, ok := p.found()
	return h, ok, err
}

func TestParseSSHArgs(t *testing.T) {
	o, err := parseSSH([]string{"me@box:2222", "--port", "8080"})
	if err != nil || o.dest != "me@box:2222" || o.port != 8080 {
		t.Fatalf("%+v %v", o, err)
	}
	for _, bad := range [][]string{nil, {"a", "b"}, {"-oProxyCommand=x"}, {"h", "--port", "1", "--socket", "/s"}, {"h", "--port", "70000"}} {
		if _, err := parseSSH(bad); err == nil {
			t.Errorf("parseSSH(%q) accepted", bad)
		}
	}
	base, dest := sshBase("me@box:2222")
	if dest != "me@box" || !strings.Contains(strings.Join(base, " "), "-p 2222") {
		t.Fatalf("sshBase: %v %q", base, dest)
	}
}
