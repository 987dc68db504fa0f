#!/usr/bin/env bash
# Checks the release configuration with the pinned goreleaser and makes a
# snapshot release of one target (this machine's): the archive must hold
# the binary, README and LICENSE, the checksums must match, and the
# unpacked binary's --version must show the stamped version.
#
#   scripts/release-check.sh
#
# goreleaser is installed once into $AHPTUI_CI_CACHE (default
# ~/.cache/ahptui-ci) and reused: the first run takes a few minutes (it
# compiles goreleaser), later runs seconds. v2.16.0 is pinned: newer
# releases need a newer Go or modules the proxy refuses (docs: TECH.md).
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER_VERSION=v2.16.0
CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
BIN="$CACHE/goreleaser-$GORELEASER_VERSION"
if [ ! -x "$BIN/goreleaser" ]; then
	mkdir -p "$BIN"
	echo "release-check: installing goreleaser $GORELEASER_VERSION into $BIN (once)"
	GOBIN="$BIN" GOFLAGS= go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
fi
GR="$BIN/goreleaser"

"$GR" check
DIST=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-dist.XXXXXX")
CONF=.goreleaser.ci-$$.yaml
trap 'rm -rf "$DIST" "$CONF" dist' EXIT
# A whole release of this machine's target only (archive, checksums,
# stamped binary): the real config with its target lists narrowed.
GOOS=$(go env GOOS) GOARCH=$(go env GOARCH)
sed -e "s/goos: \[linux, darwin, windows\]/goos: [$GOOS]/" \
	-e "s/goarch: \[amd64, arm64\]/goarch: [$GOARCH]/" .goreleaser.yaml >"$CONF"
grep -q "goos: \[$GOOS\]" "$CONF" && grep -q "goarch: \[$GOARCH\]" "$CONF" ||
	{ echo "release-check: could not narrow the targets of .goreleaser.yaml" >&2; exit 1; }
# goreleaser wants dist inside the project: build there, then move it away.
rm -rf dist
"$GR" release --config "$CONF" --snapshot --clean --skip=publish,announce,sign,validate
mv dist "$DIST/dist"
ARCHIVE=$(ls "$DIST"/dist/ahptui_*_"${GOOS}"_"${GOARCH}".tar.gz)
tar tzf "$ARCHIVE" | sort >"$DIST/contents.txt"
for f in LICENSE README.md ahptui; do
	grep -qx "$f" "$DIST/contents.txt" || { echo "release-check: $f missing from $ARCHIVE" >&2; exit 1; }
done
(cd "$DIST/dist" && sha256sum -c --ignore-missing checksums.txt)
mkdir "$DIST/x" && tar xzf "$ARCHIVE" -C "$DIST/x"
"$DIST/x/ahptui" --version | tee "$DIST/version.txt"
grep -q 'snapshot' "$DIST/version.txt"
grep -q 'built ' "$DIST/version.txt"
# goreleaser reads the commit from git; it cannot in a linked worktree (.git
# is a file) or in a repository without a remote (its git state check fails).
if [ -d .git ] && [ -n "$(git remote)" ]; then grep -q 'commit ' "$DIST/version.txt"; fi
echo "release-check: ok"
