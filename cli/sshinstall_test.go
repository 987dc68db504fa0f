//go:build !windows

package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestInstallRemote runs the install script through a local "ssh": a
// fresh install lands checksum-verified with mode 0700; a second install
// of the same binary is a no-op; a file it did not write is never
// replaced; an upload whose checksum does not match installs nothing.
func TestInstallRemote(t *testing.T) {
	home := t.TempDir()
	ssh := fakeSSH(t, home)
	ctx := context.Background()
	pl := newPayload([]byte("#!/bin/sh\necho fake ahptui\n"), "v9.9.9", "test")
	dir := filepath.Join(home, "bin", pl.dirName())
	must(t, installRemote(ctx, ssh, nil, "h", dir, pl))
	got, err := os.ReadFile(filepath.Join(dir, "ahptui"))
	must(t, err)
	if !bytes.Equal(got, pl.data) {
		t.Fatalf("installed %q", got)
	}
	if st, _ := os.Stat(filepath.Join(dir, "ahptui")); st.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", st.Mode().Perm())
	}
	must(t, installRemote(ctx, ssh, nil, "h", dir, pl)) // present: fine

	foreign := filepath.Join(home, "bin", "other")
	must(t, os.MkdirAll(foreign, 0o700))
	must(t, os.WriteFile(filepath.Join(foreign, "ahptui"), []byte("someone else's"), 0o755))
	err = installRemote(ctx, ssh, nil, "h", foreign, pl)
	if err == nil || !strings.Contains(err.Error(), "left alone") {
		t.Fatalf("foreign file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, "ahptui")); string(b) != "someone else's" {
		t.Fatalf("the foreign file was changed: %q", b)
	}

	bad := pl
	bad.sum = strings.Repeat("0", 64)
	badDir := filepath.Join(home, "bin", "bad")
	err = installRemote(ctx, ssh, nil, "h", badDir, bad)
	if err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("bad checksum: %v", err)
	}
	if ents, _ := os.ReadDir(badDir); len(ents) != 0 {
		t.Fatalf("a failed install left %v", ents)
	}
}

func TestOlderVersion(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"v0.1.0", "v0.2.0", true}, {"v0.2.0", "v0.1.0", false}, {"v1.2.3", "v1.2.3", false}, {"v1.10.0", "v1.9.0", false},
		{"v1.0.0-rc1", "v1.0.0", true}, {"dev", "v1.0.0", false}, {"v1.0.0", "dev", false}, {"", "v1.0.0", false}} {
		if got := olderVersion(c.a, c.b); got != c.want {
			t.Errorf("olderVersion(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// tarGz packs files (name → content) into a .tar.gz.
func tarGz(t *testing.T, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, b := range files {
		must(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(b)), Typeflag: tar.TypeReg}))
		_, err := tw.Write(b)
		must(t, err)
	}
	must(t, tw.Close())
	must(t, zw.Close())
	return buf.Bytes()
}

// releaseBinary is a binary for this platform as binaryPlatform reads it:
// off ELF, the test's own executable; on ELF its header alone, with no
// program or section headers (the whole executable, a 47 MB race build,
// cost minutes of gzip under -race in each test that packed it).
func releaseBinary(t *testing.T) []byte {
	t.Helper()
	exe, err := os.Executable()
	must(t, err)
	b, err := os.ReadFile(exe)
	must(t, err)
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return b
	}
	// The offsets of e_phoff, e_shoff, e_phnum, e_shnum and e_shstrndx,
	// and the header's size, by class.
	ph, sh, phnum, shnum, n := 32, 40, 56, 60, 64
	if f.Class == elf.ELFCLASS32 {
		ph, sh, phnum, shnum, n = 28, 32, 44, 48, 52
	}
	h := append([]byte(nil), b[:n]...)
	clear(h[ph:sh])           // e_phoff
	clear(h[sh : sh+(sh-ph)]) // e_shoff
	clear(h[phnum : phnum+2]) // e_phnum
	clear(h[shnum : shnum+4]) // e_shnum, e_shstrndx
	if gos, garch := binaryPlatform(h); gos != runtime.GOOS || garch != runtime.GOARCH {
		t.Fatalf("the header alone reads as %s/%s", gos, garch)
	}
	return h
}

// TestReleasePayload: the binary comes out of a release archive, checked
// against the checksums.txt beside it and against the machine's platform.
func TestReleasePayload(t *testing.T) {
	bin := releaseBinary(t)
	dir := t.TempDir()
	name := fmt.Sprintf("ahptui_1.2.3_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	archive := filepath.Join(dir, name)
	raw := tarGz(t, map[string][]byte{"README.md": []byte("hi"), "ahptui": bin})
	must(t, os.WriteFile(archive, raw, 0o600))
	pl, err := releasePayload(archive, runtime.GOOS, runtime.GOARCH)
	if err != nil || pl.version != "v1.2.3" || !bytes.Equal(pl.data, bin) {
		t.Fatalf("release: %v %q", err, pl.version)
	}
	if _, err := releasePayload(archive, runtime.GOOS, "s390x"); err == nil || !strings.Contains(err.Error(), "not for "+runtime.GOOS+"/s390x") {
		t.Fatalf("wrong platform accepted: %v", err)
	}
	sum := sha256.Sum256(raw)
	must(t, os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(strings.Repeat("ab", 32)+"  "+name+"\n"), 0o600))
	if _, err := releasePayload(archive, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "checksums.txt") {
		t.Fatalf("a checksum mismatch accepted: %v", err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(hex.EncodeToString(sum[:])+"  "+name+"\n"), 0o600))
	if _, err := releasePayload(archive, runtime.GOOS, runtime.GOARCH); err != nil {
		t.Fatalf("listed checksum: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "x.tar.gz")
	must(t, os.WriteFile(empty, tarGz(t, map[string][]byte{"README.md": nil}), 0o600))
	if _, err := releasePayload(empty, runtime.GOOS, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "no ahptui binary") {
		t.Fatalf("archive without ahptui: %v", err)
	}
}

// TestPayloadForOtherPlatform: for a machine this ahptui cannot run on and
// no release archive, the error names the archive to download and the flag.
func TestPayloadForOtherPlatform(t *testing.T) {
	uname := "Darwin arm64"
	if runtime.GOOS == "darwin" {
		uname = "Linux s390x"
	}
	_, err := payloadFor(sshOpts{dest: "box"}, probe{uname: uname})
	goos, goarch := unamePlatform(uname)
	if err == nil || !strings.Contains(err.Error(), "ahptui_VERSION_"+goos+"_"+goarch+".tar.gz") || !strings.Contains(err.Error(), "its path or https URL) with --release") {
		t.Fatalf("%v", err)
	}
	if goos, goarch := unamePlatform("Linux x86_64"); goos != "linux" || goarch != "amd64" {
		t.Fatalf("uname: %s/%s", goos, goarch)
	}
}
