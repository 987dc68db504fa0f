package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"debug/elf"
	"debug/macho"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ahptui/ahptui/internal/redact"
)

// A release archive (ahptui_VERSION_OS_ARCH.tar.gz, as the release build
// makes them) supplies the binary for a machine this ahptui cannot run on.
// When the release's checksums.txt lies beside the archive, the archive's
// SHA-256 must be listed there; the binary inside must be built for the
// machine's OS and architecture.

// maxReleaseBinary bounds the binary read from an archive.
const maxReleaseBinary = 512 << 20

// releaseName reads the version from a release archive's file name.
var releaseName = regexp.MustCompile(`^ahptui_([0-9][0-9A-Za-z.+-]*)_[a-z0-9]+_[a-z0-9]+\.tar\.gz$`)

// releasePayload reads the ahptui binary for goos/goarch from the archive
// (a path, or an https URL: sshreleaseurl.go).
func releasePayload(archive, goos, goarch string) (payload, error) {
	raw, name, err := readRelease(archive)
	if err != nil {
		return payload{}, err
	}
	if isReleaseURL(archive) {
		archive = redact.String(archive) // named in the messages below
	}
	bin, err := binaryFromTarGz(raw)
	if err != nil {
		return payload{}, fmt.Errorf("release archive %s: %w", archive, err)
	}
	if gos, garch := binaryPlatform(bin); gos != goos || garch != goarch {
		return payload{}, fmt.Errorf("release archive %s holds an ahptui for %s/%s, not for %s/%s", archive, orUnknown(gos), orUnknown(garch), goos, goarch)
	}
	ver := "release"
	if m := releaseName.FindStringSubmatch(name); m != nil {
		ver = "v" + m[1]
	}
	return newPayload(bin, ver, name), nil
}

// readRelease reads the archive (downloading a URL) checked against its
// checksums.txt, and returns it and its file name.
func readRelease(archive string) ([]byte, string, error) {
	if isReleaseURL(archive) {
		return fetchRelease(context.Background(), archive)
	}
	if rest, ok := strings.CutPrefix(archive, "~/"); ok { // as written in the config file
		if home, err := os.UserHomeDir(); err == nil {
			archive = filepath.Join(home, rest)
		}
	}
	raw, err := os.ReadFile(archive)
	if err != nil {
		return nil, "", fmt.Errorf("release archive: %w", err)
	}
	if err := checkReleaseSum(archive, raw); err != nil {
		return nil, "", err
	}
	return raw, filepath.Base(archive), nil
}

// orUnknown is s, or "unknown" when empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// checkReleaseSum checks raw against checksums.txt beside the archive,
// when there is one.
func checkReleaseSum(archive string, raw []byte) error {
	f, err := os.Open(filepath.Join(filepath.Dir(archive), "checksums.txt"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("release checksums: %w", err)
	}
	defer f.Close()
	list, err := io.ReadAll(io.LimitReader(f, maxChecksums))
	if err != nil {
		return fmt.Errorf("release checksums: %w", err)
	}
	if err := matchSum(filepath.Base(archive), raw, string(list)); err != nil {
		return fmt.Errorf("release archive %s: %w", archive, err)
	}
	return nil
}

// binaryFromTarGz returns the file named ahptui in a .tar.gz.
func binaryFromTarGz(raw []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not a .tar.gz: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no ahptui binary inside")
		}
		if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		if h.Typeflag != tar.TypeReg || filepath.Base(h.Name) != "ahptui" {
			continue
		}
		if h.Size > maxReleaseBinary {
			return nil, fmt.Errorf("ahptui inside is %d bytes, more than %d", h.Size, maxReleaseBinary)
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxReleaseBinary))
		if err != nil {
			return nil, fmt.Errorf("read ahptui: %w", err)
		}
		return b, nil
	}
}

// binaryPlatform reads the GOOS/GOARCH an executable is built for ("" when
// it is not an ELF or Mach-O file ahptui knows).
func binaryPlatform(b []byte) (goos, goarch string) {
	if f, err := elf.NewFile(bytes.NewReader(b)); err == nil {
		arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64", elf.EM_386: "386", elf.EM_ARM: "arm",
			elf.EM_RISCV: "riscv64", elf.EM_PPC64: "ppc64le", elf.EM_S390: "s390x"}[f.Machine]
		goos = "linux"
		switch f.OSABI {
		case elf.ELFOSABI_FREEBSD:
			goos = "freebsd"
		case elf.ELFOSABI_OPENBSD:
			goos = "openbsd"
		case elf.ELFOSABI_NETBSD:
			goos = "netbsd"
		}
		return goos, arch
	}
	if f, err := macho.NewFile(bytes.NewReader(b)); err == nil {
		arch := map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[f.Cpu]
		return "darwin", arch
	}
	return "", ""
}
