package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
)

// Bootstrapping: when `ahptui ssh` must start a host on a machine whose
// ahptui is missing or older than this one, it puts an ahptui there — this
// very binary when the machine's `uname -sm` matches, else the one in the
// release archive the user named (--release, or release = "…" in the host's
// config) — into a per-version directory under the remote user's data
// directory (~/.local/share/ahptui/bin/VERSION-SHA12/ahptui). The upload is
// checked against its SHA-256 there, and an existing file is never
// replaced: the directory's name carries the checksum, and a file already
// at that path with other content stops the install with an error.

// payload is an ahptui binary for the remote machine.
type payload struct {
	data    []byte
	sum     string // hex SHA-256
	version string
	from    string // where it came from, for messages
}

// dirName is the payload's per-version directory name.
func (p payload) dirName() string { return safeVersion(p.version) + "-" + p.sum[:12] }

// safeVersion keeps a version's characters that are safe in a file name.
func safeVersion(v string) string {
	b := []byte(v)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '+') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}

// newPayload wraps a binary.
func newPayload(data []byte, ver, from string) payload {
	s := sha256.Sum256(data)
	return payload{data: data, sum: hex.EncodeToString(s[:]), version: ver, from: from}
}

// unameMatches reports whether `uname -sm` names goos/goarch.
func unameMatches(uname, goos, goarch string) bool {
	os, arch := unamePlatform(uname)
	return os == goos && arch == goarch
}

// unamePlatform maps `uname -sm` to GOOS and GOARCH ("" when unknown).
func unamePlatform(uname string) (goos, goarch string) {
	f := strings.Fields(uname)
	if len(f) != 2 {
		return "", ""
	}
	goos = map[string]string{"Linux": "linux", "Darwin": "darwin", "FreeBSD": "freebsd", "OpenBSD": "openbsd", "NetBSD": "netbsd"}[f[0]]
	goarch = map[string]string{"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64",
		"i386": "386", "i686": "386", "armv7l": "arm", "armv6l": "arm", "riscv64": "riscv64", "ppc64le": "ppc64le", "s390x": "s390x"}[f[1]]
	return goos, goarch
}

// remoteBinFor returns the remote ahptui to start the host with, installing
// one when the machine has none, or only an older one; note says what was
// done ("" when nothing was installed).
func remoteBinFor(ctx context.Context, sshBin string, base []string, dest string, o sshOpts, p probe) (bin, note string, err error) {
	if o.remoteBin != "" {
		return o.remoteBin, "", nil
	}
	if p.pathBin != "" && p.pathVersion != "" && !olderVersion(p.pathVersion, version) {
		return p.pathBin, "", nil
	}
	pl, err := payloadFor(o, p)
	if err != nil {
		return "", "", err
	}
	dir := path.Join(p.binDir, pl.dirName())
	bin = path.Join(dir, "ahptui")
	for _, n := range p.installed {
		if n == pl.dirName() {
			return bin, "", nil
		}
	}
	if err := installRemote(ctx, sshBin, base, dest, dir, pl); err != nil {
		return "", "", err
	}
	if old := previousVersion(p); old != "" {
		return bin, fmt.Sprintf("upgraded ahptui on %s from %s to %s (installed %s)", o.dest, old, pl.version, bin), nil
	}
	return bin, fmt.Sprintf("installed ahptui %s on %s (%s, from %s)", pl.version, o.dest, bin, pl.from), nil
}

// previousVersion is the ahptui version the machine had ("" none): the
// running host's, the one in PATH, or the newest one installed before.
func previousVersion(p probe) string {
	switch {
	case p.serve != nil && p.serve.Version != "":
		return p.serve.Version
	case p.pathVersion != "":
		return p.pathVersion
	}
	best := ""
	for _, n := range p.installed {
		v := n
		if i := strings.LastIndexByte(n, '-'); i > 0 {
			v = n[:i]
		}
		if best == "" || olderVersion(best, v) {
			best = v
		}
	}
	return best
}

// payloadFor is this binary when it runs on the remote machine, else the
// binary in the release archive o.release, else an error naming what is
// needed.
func payloadFor(o sshOpts, p probe) (payload, error) {
	goos, goarch := unamePlatform(p.uname)
	if unameMatches(p.uname, runtime.GOOS, runtime.GOARCH) && o.release == "" {
		exe, err := os.Executable()
		if err != nil {
			return payload{}, fmt.Errorf("find this ahptui to copy to %s: %w", o.dest, err)
		}
		data, err := os.ReadFile(exe)
		if err != nil {
			return payload{}, fmt.Errorf("read this ahptui to copy to %s: %w", o.dest, err)
		}
		return newPayload(data, version, "this ahptui"), nil
	}
	if o.release == "" {
		want := "the release archive for that machine"
		if goos != "" && goarch != "" {
			want = fmt.Sprintf("ahptui_VERSION_%s_%s.tar.gz", goos, goarch)
		}
		return payload{}, fmt.Errorf("%s has no ahptui %s or newer, and this ahptui (%s/%s) cannot run there (%s): "+
			"give %s (its path or https URL) with --release (or release = \"…\" in the host's config), "+
			"or install ahptui there yourself", o.dest, version, runtime.GOOS, runtime.GOARCH, strings.TrimSpace(p.uname), want)
	}
	if goos == "" || goarch == "" {
		return payload{}, fmt.Errorf("%s is a machine ahptui does not know (uname -sm: %q)", o.dest, p.uname)
	}
	return releasePayload(o.release, goos, goarch)
}

// installScript writes stdin to DIR/ahptui unless a file is there: it
// checks the upload's SHA-256 against SUM and links it into place (ln
// never replaces an existing file). It answers with one @@AHPTUI- line.
const installScript = `dir=$1; sum=$2; f="$dir/ahptui"
sha() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1"; else echo none; fi | cut -d " " -f 1; }
umask 077; mkdir -p "$dir" || exit 1
if [ -e "$f" ]; then cat >/dev/null; if [ "$(sha "$f")" = "$sum" ]; then echo "@@AHPTUI-PRESENT"; else echo "@@AHPTUI-FOREIGN"; fi; exit 0; fi
t="$dir/.ahptui-upload.$$"; cat >"$t" || { rm -f "$t"; exit 1; }
got=$(sha "$t"); if [ "$got" != "$sum" ]; then rm -f "$t"; echo "@@AHPTUI-BADSUM $got"; exit 0; fi
chmod 700 "$t"; if ln "$t" "$f" 2>/dev/null; then rm -f "$t"; echo "@@AHPTUI-INSTALLED"; else rm -f "$t"; echo "@@AHPTUI-FOREIGN"; fi`

// installRemote uploads pl to dir/ahptui on dest.
func installRemote(ctx context.Context, sshBin string, base []string, dest, dir string, pl payload) error {
	script := "set -- " + shellQuote(dir) + " " + pl.sum + "\n" + installScript
	out, err := runRemote(ctx, sshBin, base, dest, script, bytes.NewReader(pl.data))
	if err != nil {
		return fmt.Errorf("install ahptui on %s: %w", dest, err)
	}
	out = strings.TrimSpace(out)
	switch {
	case out == "@@AHPTUI-INSTALLED" || out == "@@AHPTUI-PRESENT":
		return nil
	case out == "@@AHPTUI-FOREIGN":
		return fmt.Errorf("install ahptui on %s: %s/ahptui exists and is not the ahptui %s this would install; "+
			"it was left alone (remove it, or name a remote ahptui with --remote-bin)", dest, dir, pl.version)
	case out == "@@AHPTUI-BADSUM none":
		return fmt.Errorf("install ahptui on %s: the upload cannot be verified there (neither sha256sum nor shasum is installed)", dest)
	case strings.HasPrefix(out, "@@AHPTUI-BADSUM"):
		return fmt.Errorf("install ahptui on %s: the uploaded file's SHA-256 does not match (%s); nothing was installed", dest, sanitizeLine(out))
	}
	return errors.New("install ahptui on " + dest + ": unexpected answer " + sanitizeLine(out))
}

// olderVersion reports whether version a is older than b ("v1.2.3"
// forms; a version that is not one, such as "dev", is never older).
func olderVersion(a, b string) bool {
	pa, oka := semverParts(a)
	pb, okb := semverParts(b)
	if !oka || !okb {
		return false
	}
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	pre := func(v string) bool { return strings.Contains(v, "-") }
	return pre(a) && !pre(b)
}

// semverParts parses major.minor.patch from "v1.2.3[-pre][+build]".
func semverParts(v string) ([3]int, bool) {
	var out [3]int
	v = strings.TrimPrefix(v, "v")
	v, _, _ = strings.Cut(v, "+")
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, s := range parts {
		n := 0
		if s == "" {
			return out, false
		}
		for _, c := range s {
			if c < '0' || c > '9' {
				return out, false
			}
			n = n*10 + int(c-'0')
		}
		out[i] = n
	}
	return out, true
}
